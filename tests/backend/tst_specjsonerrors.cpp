// A broken job spec file is named with the line and column of the break and an excerpt whose
// caret points at it: valid UTF-8 whatever the file holds, columns counted in characters.
// (loadJobSpec → findJsonSyntaxError / describeJsonSyntaxError, before protobuf's parser.)
#include "worker/common/json_syntax.h"
#include "worker/common/spec_io.h"

#include <QFile>
#include <QRandomGenerator>
#include <QStringDecoder>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

bool validUtf8(const std::string& s) {
    QStringDecoder d(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    [[maybe_unused]] const QString text = d.decode(QByteArrayView(s.data(), qsizetype(s.size())));
    return !d.hasError();
}

/// The message loadJobSpec gives for a file holding `bytes`.
QString loadError(const QTemporaryDir& dir, const char* name, const QByteArray& bytes) {
    QFile f(dir.filePath(QString::fromLatin1(name)));
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
        return QStringLiteral("cannot write the test file");
    }
    f.close();
    Result<v1::JobSpec> spec = loadJobSpec(f.fileName().toStdString());
    if (spec) {
        return QStringLiteral("accepted");
    }
    const std::string& m = spec.error().message;
    if (!validUtf8(m)) {
        return QStringLiteral("the message is not UTF-8");
    }
    return QString::fromStdString(m);
}

/// The display column (0-based) of the caret in the message's last line, minus its indent.
int caretColumn(const QString& message) {
    const QString last = message.section(QLatin1Char('\n'), -1);
    return int(last.indexOf(QLatin1Char('^'))) - 2;
}

} // namespace

class TestSpecJsonErrors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void truncatedFile() {
        QTemporaryDir dir;
        const QString m =
            loadError(dir, "cut.json", "{\"name\": \"x\",\n  \"model\": {\"family\": \"mlp\"\n");
        // Line 2, just after the last character: the object opened on line 2 is not closed.
        QVERIFY2(m.startsWith(dir.filePath("cut.json") + ":2:28: not valid JSON: "), qPrintable(m));
        QVERIFY2(m.contains("the object opened at line 2, column 12"), qPrintable(m));
        QVERIFY2(m.contains("'}' is missing"), qPrintable(m));
        const QStringList lines = m.split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[1], QStringLiteral("    \"model\": {\"family\": \"mlp\""));
        QCOMPARE(caretColumn(m), 27);
        QVERIFY(!m.contains("??"));
    }

    void trailingComma() {
        QTemporaryDir dir;
        const QString m = loadError(dir, "comma.json",
                                    "{\"name\": \"x\",\n  \"model\": {\"family\": \"mlp\",},\n}\n");
        QVERIFY2(m.startsWith(dir.filePath("comma.json") + ":2:28: not valid JSON: a comma before "
                                                           "'}'"),
                 qPrintable(m));
        QVERIFY2(m.contains("trailing comma, remove it"), qPrintable(m));
        QCOMPARE(m.section('\n', 1, 1).mid(2).at(caretColumn(m)), QLatin1Char(','));
    }

    void invalidUtf8() {
        QTemporaryDir dir;
        // "café" in Latin-1, then a stray 0xFF: the first bad byte is named, the excerpt is UTF-8.
        const QString m =
            loadError(dir, "latin1.json", "{\n\t\"name\": \"caf\xe9 \xff\",\n \"model\": {}}\n");
        QVERIFY2(m.startsWith(dir.filePath("latin1.json") + ":2:14: not valid JSON: the byte 0xE9 "
                                                            "in a string is not UTF-8"),
                 qPrintable(m));
        QVERIFY2(m.contains("save the file as UTF-8"), qPrintable(m));
        // The tab shows as one space, the bad bytes as U+FFFD; the caret is under the first.
        QCOMPARE(m.section('\n', 1, 1), QStringLiteral("   \"name\": \"caf\uFFFD \uFFFD\","));
        QCOMPARE(caretColumn(m), 13);
    }

    void columnsCountCharacters() {
        QTemporaryDir dir;
        // Wide CJK characters take two cells: the caret still sits under the missing comma.
        const QString m = loadError(
            dir, "cjk.json", QStringLiteral("{\"name\": \"训练 Grüße\" \"model\": {}}").toUtf8());
        QVERIFY2(m.contains(":1:21: not valid JSON: unexpected '\"': expected ',' or '}'"),
                 qPrintable(m));
        QCOMPARE(caretColumn(m), 22); // 20 characters before it, two of them two cells wide
    }

    void otherMistakes_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty") << QByteArray("  \n") << ":1:1:"
                               << "holds no JSON";
        QTest::newRow("single quotes") << QByteArray("{'name': 1}") << ":1:2:"
                                       << "double quotes";
        QTest::newRow("missing colon") << QByteArray("{\"a\" 1}") << ":1:6:"
                                       << "expected ':'";
        QTest::newRow("bad escape") << QByteArray("{\"p\": \"C:\\data\"}") << ":1:10:"
                                    << "unknown escape \\d";
        QTest::newRow("leading zero") << QByteArray("{\"a\": 07}") << ":1:7:"
                                      << "start with 0";
        QTest::newRow("tab in string") << QByteArray("{\"a\": \"x\ty\"}") << ":1:9:"
                                       << "write it as \\t";
        QTest::newRow("two values") << QByteArray("{} {}") << ":1:4:"
                                    << "after the end";
        QTest::newRow("unclosed string") << QByteArray("{\"name\": \"abc") << ":1:14:"
                                         << "closing \" is missing";
        QTest::newRow("control byte") << QByteArray("{\"a\": \x01}") << ":1:7:"
                                      << "U+0001";
        QTest::newRow("trailing comma in array") << QByteArray("{\"a\": [1, 2,\n]}") << ":1:12:"
                                                 << "before ']'";
        // protobuf keeps the last of two: the first command would be silently replaced.
        QTest::newRow("duplicate key")
            << QByteArray("{\"model\": {\n  \"command\": [\"/bin/true\"],\n  \"command\": "
                          "[\"/bin/rm\"]}}")
            << ":3:3:"
            << "the field \"command\" appears twice in one object (first on line 2)";
        QTest::newRow("same key in two objects is fine elsewhere")
            << QByteArray("{\"a\": {\"x\": 1}, \"b\": {\"x\": 2}, \"a\": 3}") << ":1:32:"
            << "the field \"a\" appears twice";
    }
    void otherMistakes() {
        QFETCH(QByteArray, json);
        QFETCH(QString, where);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const QString m = loadError(dir, "spec.json", json);
        QVERIFY2(m.startsWith(dir.filePath("spec.json") + where), qPrintable(m));
        QVERIFY2(m.contains(says), qPrintable(m));
        QCOMPARE(m.count('\n'), 2);
    }

    void longLinesAreCut() {
        const std::string json = "{\"name\": \"" + std::string(5000, 'a') + "\" \"x\": 1}";
        const auto e = findJsonSyntaxError(json);
        QVERIFY(e.has_value());
        QCOMPARE(e->column, 5013);
        const QString m = QString::fromStdString(describeJsonSyntaxError(json, *e, "long.json"));
        const QString excerpt = m.section('\n', 1, 1);
        QVERIFY2(excerpt.size() < 90, qPrintable(excerpt));
        QVERIFY(excerpt.startsWith(QStringLiteral("  …")));
        QCOMPARE(excerpt.mid(2).at(caretColumn(m)), QLatin1Char('"'));
    }

    void validJsonPasses() {
        for (const char* ok : {"{}", "\xEF\xBB\xBF{\"name\": \"x\"}", "[1, -0.5e+3, true, null]",
                               "{\"a\": \"\\u00e9\\n\\\"\", \"b\": {\"c\": []}}", "\"训练\""}) {
            QVERIFY2(!findJsonSyntaxError(ok), ok);
        }
        // A spec with a byte order mark loads.
        Result<v1::JobSpec> spec = parseJobSpec("\xEF\xBB\xBF{\"name\": \"bom\"}", "bom.json");
        QVERIFY2(spec, spec ? "" : spec.error().message.c_str());
        QCOMPARE(spec->name(), std::string("bom"));
    }

    void hostileInputNeverBreaks() {
        // Deep nesting is refused, not a stack overflow.
        const std::string deep(200000, '[');
        const auto e = findJsonSyntaxError(deep);
        QVERIFY(e.has_value());
        QVERIFY2(e->problem.find("512 levels") != std::string::npos, e->problem.c_str());
        // Random bytes and mutated specs: always an error or a parse, a UTF-8 message of 3 lines.
        QRandomGenerator rng(19);
        const std::string base = R"({"name": "x", "model": {"family": "mlp"}, "layout": [1, 2.5]})";
        for (int i = 0; i < 3000; ++i) {
            std::string s = base;
            if (i % 3 == 0) {
                s.resize(rng.bounded(200));
                for (char& c : s) {
                    c = char(rng.bounded(256));
                }
            } else {
                for (int k = 0; k < 3; ++k) {
                    s[rng.bounded(int(s.size()))] = char(rng.bounded(256));
                }
                s.resize(rng.bounded(int(s.size()) + 1));
            }
            Result<v1::JobSpec> spec = parseJobSpec(s, "fuzz.json");
            if (spec) {
                continue;
            }
            QVERIFY2(validUtf8(spec.error().message), "not UTF-8");
            for (char c : spec.error().message) {
                QVERIFY2(static_cast<unsigned char>(c) >= 0x20 || c == '\n', "a control character");
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSpecJsonErrors)
#include "tst_specjsonerrors.moc"
