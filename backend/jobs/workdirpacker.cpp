// model.workdir → reproducible tar + SHA-256 (see workdirpacker.h).
#include "backend/jobs/workdirpacker.h"

#include "backend/jobs/workdirscan.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryFile>

#include <algorithm>

namespace tessera {

namespace {

/// A glob segment → regular expression text ('*' and '?' stop at '/').
QString globToRegex(const QString& glob) {
    QString re;
    for (int i = 0; i < glob.size(); ++i) {
        const QChar c = glob[i];
        if (c == '*' && i + 1 < glob.size() && glob[i + 1] == '*') {
            re += QStringLiteral(".*");
            ++i;
            if (i + 1 < glob.size() && glob[i + 1] == '/') {
                ++i; // "**/" also matches no folder at all
                re += QStringLiteral("/?");
            }
        } else if (c == '*') {
            re += QStringLiteral("[^/]*");
        } else if (c == '?') {
            re += QStringLiteral("[^/]");
        } else if (c == '[') {
            const int close = glob.indexOf(']', i + 1);
            if (close < 0) {
                re += QStringLiteral("\\[");
            } else {
                re += glob.mid(i, close - i + 1);
                i = close;
            }
        } else {
            re += QRegularExpression::escape(QString(c));
        }
    }
    return re;
}

} // namespace

IgnoreRules::IgnoreRules(const QString& text) {
    QStringList lines = {QStringLiteral(".git/"), QStringLiteral("__pycache__/")};
    lines += text.split('\n');
    for (QString line : lines) {
        line = line.trimmed();
        if (line.isEmpty() || line.startsWith('#')) {
            continue;
        }
        Rule r;
        if (line.startsWith('!')) {
            r.negate = true;
            line.remove(0, 1);
        }
        if (line.endsWith('/')) {
            r.dirOnly = true;
            line.chop(1);
        }
        const bool anchored = line.contains('/');
        if (line.startsWith('/')) {
            line.remove(0, 1);
        }
        r.regex = (anchored ? QStringLiteral("^") : QStringLiteral("^(.*/)?")) + globToRegex(line) +
                  QStringLiteral("$");
        m_rules.append(r);
    }
}

bool IgnoreRules::ignores(const QString& relativePath, bool isDir) const {
    bool ignored = false;
    for (const Rule& r : m_rules) {
        if (r.dirOnly && !isDir) {
            continue;
        }
        if (QRegularExpression(r.regex).match(relativePath).hasMatch()) {
            ignored = !r.negate;
        }
    }
    return ignored;
}

Result<PackedWorkdir> packWorkdir(const QString& folder, quint64 maxBytes, const QString& outDir,
                                  bool followLinks) {
    auto scanned = scanWorkdir(folder, maxBytes, followLinks);
    if (!scanned) {
        return relay(scanned);
    }
    QList<WorkdirEntry> entries = std::move(*scanned);
    std::sort(entries.begin(), entries.end(),
              [](const WorkdirEntry& a, const WorkdirEntry& b) { return a.path < b.path; });
    QTemporaryFile list(outDir + QStringLiteral("/workdir-files-XXXXXX"));
    if (!list.open()) {
        return fail(ErrorCode::Io, "cannot write a file list in '" + outDir.toStdString() + "'");
    }
    for (const WorkdirEntry& e : entries) {
        list.write(e.path.toUtf8());
        list.write("\0", 1);
    }
    list.flush();
    PackedWorkdir out;
    out.files = int(entries.size());
    QTemporaryFile tar(outDir + QStringLiteral("/workdir-XXXXXX.tar"));
    tar.setAutoRemove(false);
    if (!tar.open()) {
        return fail(ErrorCode::Io, "cannot create a tar file in '" + outDir.toStdString() + "'");
    }
    out.tarPath = tar.fileName();
    tar.close();
    QStringList args = {QStringLiteral("--create"),
                        QStringLiteral("--file"),
                        out.tarPath,
                        QStringLiteral("--directory"),
                        folder,
                        QStringLiteral("--format=gnu"),
                        QStringLiteral("--owner=0"),
                        QStringLiteral("--group=0"),
                        QStringLiteral("--numeric-owner"),
                        QStringLiteral("--mtime=@0"),
                        QStringLiteral("--no-recursion"),
                        QStringLiteral("--null"),
                        QStringLiteral("--files-from"),
                        list.fileName()};
    if (followLinks) {
        args << QStringLiteral("--dereference") << QStringLiteral("--hard-dereference");
    }
    QProcess p;
    p.start(QStringLiteral("tar"), args);
    if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        QFile::remove(out.tarPath);
        return fail(ErrorCode::Io,
                    "cannot pack model.workdir '" + folder.toStdString() + "' with tar: " +
                        QString::fromLocal8Bit(p.readAllStandardError()).trimmed().toStdString());
    }
    QFile packed(out.tarPath);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!packed.open(QIODevice::ReadOnly) || !hash.addData(&packed)) {
        return fail(ErrorCode::Io, "cannot read back '" + out.tarPath.toStdString() + "'");
    }
    out.bytes = quint64(packed.size());
    out.sha256 = QString::fromLatin1(hash.result().toHex());
    return out;
}

} // namespace tessera
