// Unit test of what the worker does with a line a program printed: UTF-8 checking and escaping
// (utf8_text.h) and the bounded `@tessera` record parser (metric_parse.h), hostile lines included.
#include "worker/daemon/output/metric_parse.h"
#include "worker/daemon/output/utf8_text.h"

#include <QElapsedTimer>
#include <QTest>

using namespace tessera;
using daemon::ParsedLine;

Q_DECLARE_METATYPE(std::string)

class TestRecordParse : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void utf8_data() {
        QTest::addColumn<std::string>("bytes");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<std::string>("escaped");
        QTest::newRow("ascii") << std::string("loss 0.5") << true << std::string("loss 0.5");
        QTest::newRow("empty") << std::string() << true << std::string();
        QTest::newRow("nul is text") << std::string("a\0b", 3) << true << std::string("a\0b", 3);
        QTest::newRow("two-byte") << std::string("\xC3\xA9t\xC3\xA9") << true
                                  << std::string("\xC3\xA9t\xC3\xA9");
        QTest::newRow("four-byte")
            << std::string("\xF0\x9F\x94\xA5") << true << std::string("\xF0\x9F\x94\xA5");
        QTest::newRow("latin-1 byte")
            << std::string("caf\xE9!") << false << std::string("caf\\xE9!");
        QTest::newRow("lone continuation")
            << std::string("\x80x") << false << std::string("\\x80x");
        QTest::newRow("overlong slash")
            << std::string("\xC0\xAF") << false << std::string("\\xC0\\xAF");
        QTest::newRow("surrogate")
            << std::string("\xED\xA0\x80") << false << std::string("\\xED\\xA0\\x80");
        QTest::newRow("past U+10FFFF")
            << std::string("\xF4\x90\x80\x80") << false << std::string("\\xF4\\x90\\x80\\x80");
        QTest::newRow("cut at the end")
            << std::string("ok\xE2\x82") << false << std::string("ok\\xE2\\x82");
        QTest::newRow("0xFF") << std::string("\xFF\xFE") << false << std::string("\\xFF\\xFE");
    }
    void utf8() {
        QFETCH(std::string, bytes);
        QFETCH(bool, valid);
        QFETCH(std::string, escaped);
        QCOMPARE(daemon::isValidUtf8(bytes), valid);
        const std::string out = daemon::escapeInvalidUtf8(bytes);
        QCOMPARE(QByteArray::fromStdString(out), QByteArray::fromStdString(escaped));
        QVERIFY(daemon::isValidUtf8(out));
    }

    void everyByteEscapesToUtf8() {
        std::string all;
        for (int i = 0; i < 256; ++i) {
            all.push_back(static_cast<char>(i));
        }
        const std::string out = daemon::escapeInvalidUtf8(all);
        QVERIFY(daemon::isValidUtf8(out));
        QVERIFY(out.size() <= 4 * all.size());
        QVERIFY(out.find("\\xFF") != std::string::npos);
    }

    void logSafeEscapesControlsAndCuts() {
        // A caller's bytes in a log line: no forged line, no terminal escape, no broken UTF-8.
        const std::string hostile = "sh\n2026-12-04 [info] forged\x1b[31m\x7f\xc2\x9b\xff é";
        const std::string out = daemon::logSafe(hostile);
        QCOMPARE(QByteArray::fromStdString(out),
                 QByteArray("sh\\x0A2026-12-04 [info] forged\\x1B[31m\\x7F\\xC2\\x9B\\xFF é"));
        QVERIFY(daemon::isValidUtf8(out));
        const std::string cut = daemon::logSafe(std::string(1000, 'a'), 10);
        QCOMPARE(QByteArray::fromStdString(cut), QByteArray("aaaaaaaaaa… (1000 bytes)"));
        std::string all;
        for (int i = 0; i < 256; ++i) {
            all.push_back(static_cast<char>(i));
        }
        const std::string every = daemon::logSafe(all, 256);
        QVERIFY(daemon::isValidUtf8(every));
        for (const char c : every) {
            QVERIFY(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F);
        }
    }

    void records_data() {
        QTest::addColumn<std::string>("line");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("refusalPart");
        using K = ParsedLine::Kind;
        QTest::newRow("plain log") << std::string("epoch 1 done") << int(K::NotARecord) << "";
        QTest::newRow("prefix without space")
            << std::string("@tessera{}") << int(K::NotARecord) << "";
        QTest::newRow("metric") << std::string("@tessera {\"step\":3,\"rank\":1,\"loss\":0.5}")
                                << int(K::Metric) << "";
        QTest::newRow("trailing CR")
            << std::string("@tessera {\"step\":3}\r") << int(K::Metric) << "";
        QTest::newRow("step 1e30")
            << std::string("@tessera {\"step\":1e30,\"loss\":1}") << int(K::Refused)
            << "\"step\" is 1e+30: it must be a whole number in 0..2^53";
        QTest::newRow("step negative")
            << std::string("@tessera {\"step\":-1}") << int(K::Refused) << "\"step\" is -1";
        QTest::newRow("step fraction")
            << std::string("@tessera {\"step\":2.5}") << int(K::Refused) << "whole number";
        QTest::newRow("step 2^53 is fine")
            << std::string("@tessera {\"step\":9007199254740992}") << int(K::Metric) << "";
        QTest::newRow("rank 3e9") << std::string("@tessera {\"step\":1,\"rank\":3e9}")
                                  << int(K::Refused) << "\"rank\" is 3000000000";
        QTest::newRow("malformed")
            << std::string("@tessera {\"step\":") << int(K::Refused) << "not one JSON object";
        QTest::newRow("array, not object")
            << std::string("@tessera [1,2]") << int(K::Refused) << "not one JSON object";
        QTest::newRow("not utf-8")
            << std::string("@tessera {\"name\":\"caf\xE9\"}") << int(K::Refused) << "not UTF-8";
        QTest::newRow("nested 100000")
            << "@tessera {\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}"
            << int(K::Refused) << "bytes, more than";
        QTest::newRow("nested 17 in 40 bytes")
            << "@tessera {\"a\":" + std::string(16, '[') + std::string(16, ']') + "}"
            << int(K::Refused) << "deeper than 16";
        QTest::newRow("nested 16 is fine")
            << "@tessera {\"a\":" + std::string(15, '[') + std::string(15, ']') + "}"
            << int(K::Metric) << "";
        QTest::newRow("brackets inside a string are text")
            << "@tessera {\"note\":\"" + std::string(40, '{') + "\\\"\",\"step\":1}"
            << int(K::Metric) << "";
        QTest::newRow("too long") << "@tessera {\"pad\":\"" + std::string(20000, 'x') + "\"}"
                                  << int(K::Refused) << "more than the 16384 allowed";
        std::string many = "@tessera {";
        for (int i = 0; i < 129; ++i) {
            many += (i ? "," : "") + ("\"f" + std::to_string(i) + "\":1");
        }
        QTest::newRow("129 numeric fields")
            << many + "}" << int(K::Refused) << "more than 128 numeric fields";
        QTest::newRow("long field name") << "@tessera {\"" + std::string(200, 'k') + "\":1}"
                                         << int(K::Refused) << "field name is 200 bytes";
    }
    void records() {
        QFETCH(std::string, line);
        QFETCH(int, kind);
        QFETCH(QString, refusalPart);
        const ParsedLine p = daemon::parseRecordLine(line);
        QCOMPARE(int(p.kind), kind);
        if (kind == int(ParsedLine::Kind::Refused)) {
            QVERIFY2(QString::fromStdString(p.refusal).contains(refusalPart), p.refusal.c_str());
            QVERIFY(daemon::isValidUtf8(p.refusal));
        }
    }

    void metricFields() {
        const ParsedLine p = daemon::parseRecordLine(
            "@tessera "
            "{\"step\":12,\"rank\":3,\"loss\":0.53,\"phase\":\"train\",\"nested\":{\"x\":1}}");
        QCOMPARE(int(p.kind), int(ParsedLine::Kind::Metric));
        QCOMPARE(p.metric.step(), int64_t(12));
        QCOMPARE(p.metric.rank(), 3);
        QCOMPARE(p.metric.values().at("loss"), 0.53);
        QCOMPARE(p.metric.values().count("phase"), size_t(0)); // only numbers are charted
        QCOMPARE(p.metric.values().count("nested"), size_t(0));
        QCOMPARE(p.metric.values().at("step"), 12.0);
    }

    // The bounds come before the parser: the worst line costs a scan, not a parse.
    void hostileLinesAreCheap() {
        const std::string deep = "@tessera " + std::string(16000, '[');
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < 100; ++i) {
            QCOMPARE(int(daemon::parseRecordLine(deep).kind), int(ParsedLine::Kind::Refused));
        }
        qInfo("100 refusals of a 16,000-level line took %lld ms", t.elapsed());
    }
};

QTEST_GUILESS_MAIN(TestRecordParse)
#include "tst_record_parse.moc"
