// model.workdir → reproducible tar + SHA-256 (see workdirpacker.h).
#include "backend/jobs/workdirpacker.h"

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

QString humanBytes(quint64 b) {
    return QString::number(double(b) / (1 << 20), 'f', 1) + QStringLiteral(" MiB");
}

struct Entry {
    QString path;
    quint64 size = 0;
};

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

Result<PackedWorkdir> packWorkdir(const QString& folder, quint64 maxBytes, const QString& outDir) {
    const QDir root(folder);
    if (!QFileInfo(folder).isDir()) {
        return fail(ErrorCode::NotFound,
                    "model.workdir '" + folder.toStdString() + "' is not a folder on this machine");
    }
    QFile ignoreFile(root.filePath(QStringLiteral(".tesseraignore")));
    const IgnoreRules rules(
        ignoreFile.open(QIODevice::ReadOnly) ? QString::fromUtf8(ignoreFile.readAll()) : QString());
    QList<Entry> entries;
    quint64 total = 0;
    // Walk by hand so an ignored folder is not entered at all.
    QStringList pending = {QString()};
    while (!pending.isEmpty()) {
        const QString rel = pending.takeLast();
        const QDir dir(rel.isEmpty() ? folder : root.filePath(rel));
        const auto infos = dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                             QDir::NoDotAndDotDot);
        for (const QFileInfo& info : infos) {
            const QString path = rel.isEmpty() ? info.fileName() : rel + '/' + info.fileName();
            const bool isDir = info.isDir() && !info.isSymLink();
            if (rules.ignores(path, isDir)) {
                continue;
            }
            if (isDir) {
                pending.append(path);
            } else if (info.isFile() || info.isSymLink()) {
                const quint64 size = info.isSymLink() ? 0 : quint64(info.size());
                entries.append({path, size});
                total += size;
            }
        }
    }
    if (total > maxBytes) {
        std::sort(entries.begin(), entries.end(),
                  [](const Entry& a, const Entry& b) { return a.size > b.size; });
        QStringList largest;
        for (int i = 0; i < std::min<qsizetype>(3, entries.size()); ++i) {
            largest << entries[i].path + QStringLiteral(" (") + humanBytes(entries[i].size) + ')';
        }
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("model.workdir '%1' holds %2 to ship, more than the %3 allowed "
                                   "(model.workdirMaxMib); leave data and checkpoints out with "
                                   "%1/.tesseraignore — largest: %4")
                        .arg(folder, humanBytes(total), humanBytes(maxBytes),
                             largest.join(QStringLiteral(", ")))
                        .toStdString());
    }
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.path < b.path; });
    QTemporaryFile list(outDir + QStringLiteral("/workdir-files-XXXXXX"));
    if (!list.open()) {
        return fail(ErrorCode::Io, "cannot write a file list in '" + outDir.toStdString() + "'");
    }
    for (const Entry& e : entries) {
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
    QProcess p;
    p.start(QStringLiteral("tar"),
            {QStringLiteral("--create"), QStringLiteral("--file"), out.tarPath,
             QStringLiteral("--directory"), folder, QStringLiteral("--format=gnu"),
             QStringLiteral("--owner=0"), QStringLiteral("--group=0"),
             QStringLiteral("--numeric-owner"), QStringLiteral("--mtime=@0"),
             QStringLiteral("--no-recursion"), QStringLiteral("--null"),
             QStringLiteral("--files-from"), list.fileName()});
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
