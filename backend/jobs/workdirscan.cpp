// A workdir's files, its size limit and its symbolic links (see workdirscan.h).
#include "backend/jobs/workdirscan.h"

#include "backend/jobs/workdirpacker.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <filesystem>

namespace tessera {

namespace {

namespace fs = std::filesystem;

QString humanMib(quint64 b) {
    return QString::number(double(b) / (1 << 20), 'f', 1) + QStringLiteral(" MiB");
}

/// True when `path` (lexically normal, absolute) is `root` or inside it.
bool within(const fs::path& path, const fs::path& root) {
    auto p = path.begin();
    for (auto r = root.begin(); r != root.end(); ++r, ++p) {
        if (r->empty()) {
            continue; // the trailing "" of a root written with a final '/'
        }
        if (p == path.end() || *p != *r) {
            return false;
        }
    }
    return true;
}

/// Refuses the link `rel` (at `link`) of the workdir `root` (canonical) when it leaves it.
Result<void> checkLink(const fs::path& link, const QString& rel, const fs::path& root,
                       const QString& folder) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(link, ec);
    if (ec) {
        return fail(ErrorCode::Io, "cannot read the symbolic link '" + rel.toStdString() +
                                       "' in model.workdir: " + ec.message());
    }
    const auto refuse = [&](const std::string& why) {
        return fail(ErrorCode::InvalidArgument, "model.workdir '" + folder.toStdString() +
                                                    "': the symbolic link '" + rel.toStdString() +
                                                    "' → '" + target.string() + "' " + why);
    };
    const fs::path lexical =
        (target.is_absolute() ? target : link.parent_path() / target).lexically_normal();
    const fs::path canonicalParent = fs::canonical(link.parent_path(), ec);
    const fs::path resolvedLexical =
        ec ? lexical
           : (target.is_absolute() ? target : canonicalParent / target).lexically_normal();
    if (!within(resolvedLexical, root)) {
        return refuse("points outside it, where the workers have no such file: copy the file "
                      "into the workdir, or leave the link out with .tesseraignore");
    }
    const fs::path resolved = fs::canonical(link, ec);
    if (ec == std::errc::too_many_symbolic_link_levels) {
        return refuse("is a loop of links: remove it");
    }
    if (!ec && !within(resolved, root)) {
        return refuse("leads outside it through other links (to '" + resolved.string() +
                      "'): copy the file into the workdir, or leave the link out with "
                      ".tesseraignore");
    }
    return {}; // inside, or dangling inside: shipped as the link it is
}

/// A folder still to walk: its path relative to the workdir and the canonical folders walked to
/// reach it (the workdir first).
struct Pending {
    QString rel;
    QList<fs::path> chain;
};

/// Where a followed link leads: a folder to walk, or a file of `size` bytes.
struct LinkTarget {
    fs::path path;
    bool isDir = false;
    quint64 size = 0;
};

/// Follows the link `rel` (at `link`) for model.workdirFollowLinks: refuses one that dangles,
/// loops, leads to something neither file nor folder, or to a folder holding one of `chain`
/// (the folders walked to reach the link), which would be walked for ever.
Result<LinkTarget> followLink(const fs::path& link, const QString& rel,
                              const QList<fs::path>& chain, const QString& folder) {
    std::error_code ec;
    const fs::path shown = fs::read_symlink(link, ec);
    const auto refuse = [&](const std::string& why) {
        return fail(ErrorCode::InvalidArgument, "model.workdir '" + folder.toStdString() +
                                                    "': the symbolic link '" + rel.toStdString() +
                                                    "' → '" + shown.string() + "' " + why);
    };
    const fs::path resolved = fs::canonical(link, ec);
    if (ec == std::errc::too_many_symbolic_link_levels) {
        return refuse("is a loop of links: remove it");
    }
    if (ec) {
        return refuse("leads to nothing (" + ec.message() +
                      "): with model.workdirFollowLinks every link must lead to a file or "
                      "folder; remove it or leave it out with .tesseraignore");
    }
    const fs::file_status st = fs::status(resolved, ec);
    if (fs::is_directory(st)) {
        for (const fs::path& walked : chain) {
            if (!walked.empty() && within(walked, resolved)) {
                return refuse("is a loop: it leads to '" + resolved.string() +
                              "', a folder that holds the link itself; leave it out with "
                              ".tesseraignore");
            }
        }
        return LinkTarget{resolved, true, 0};
    }
    if (fs::is_regular_file(st)) {
        const auto size = fs::file_size(resolved, ec);
        return LinkTarget{resolved, false, ec ? 0 : quint64(size)};
    }
    return refuse("leads to neither a file nor a folder: leave it out with .tesseraignore");
}

Result<void> tooLarge(const QString& folder, QList<WorkdirEntry> entries, quint64 total,
                      quint64 maxBytes) {
    std::sort(entries.begin(), entries.end(),
              [](const WorkdirEntry& a, const WorkdirEntry& b) { return a.size > b.size; });
    QStringList largest;
    for (int i = 0; i < std::min<qsizetype>(3, entries.size()); ++i) {
        largest << entries[i].path + QStringLiteral(" (") + humanMib(entries[i].size) + ')';
    }
    return fail(ErrorCode::InvalidArgument,
                QStringLiteral("model.workdir '%1' holds %2%3 to ship, more than the %4 allowed "
                               "(model.workdirMaxMib); leave data and checkpoints out with "
                               "%1/.tesseraignore — largest: %5")
                    .arg(folder, total > maxBytes ? QStringLiteral("over ") : QString(),
                         humanMib(total), humanMib(maxBytes), largest.join(QStringLiteral(", ")))
                    .toStdString());
}

} // namespace

quint64 workdirMaxBytes(const v1::ModelSpec& model) {
    return model.workdir_max_mib() > 0 ? quint64(model.workdir_max_mib()) << 20
                                       : kDefaultWorkdirMaxBytes;
}

Result<QList<WorkdirEntry>> scanWorkdir(const QString& folder, quint64 maxBytes, bool followLinks) {
    if (!QFileInfo(folder).isDir()) {
        return fail(ErrorCode::NotFound, "model.workdir '" + folder.toStdString() +
                                             "' is not a folder on this machine: give the "
                                             "folder of the program's code");
    }
    std::error_code ec;
    const fs::path root = fs::canonical(QFile::encodeName(folder).toStdString(), ec);
    if (ec) {
        return fail(ErrorCode::Io,
                    "cannot resolve model.workdir '" + folder.toStdString() + "': " + ec.message());
    }
    if (root == root.root_path()) {
        return fail(ErrorCode::InvalidArgument,
                    "model.workdir '" + folder.toStdString() +
                        "' is the whole file system: give the folder of the program's code");
    }
    const QDir top(folder);
    QFile ignoreFile(top.filePath(QStringLiteral(".tesseraignore")));
    const IgnoreRules rules(
        ignoreFile.open(QIODevice::ReadOnly) ? QString::fromUtf8(ignoreFile.readAll()) : QString());
    QList<WorkdirEntry> entries;
    quint64 total = 0;
    // Walked by hand: an ignored folder is not entered. Each folder keeps the canonical folders
    // walked to reach it, so that a followed link back into one of them is found as a loop.
    QList<Pending> pending = {{QString(), {root}}};
    while (!pending.isEmpty()) {
        const Pending here = pending.takeLast();
        const QDir dir(here.rel.isEmpty() ? folder : top.filePath(here.rel));
        const auto infos = dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                             QDir::NoDotAndDotDot);
        for (const QFileInfo& info : infos) {
            const QString path =
                here.rel.isEmpty() ? info.fileName() : here.rel + '/' + info.fileName();
            const bool isDir = info.isDir() && !info.isSymLink();
            if (rules.ignores(path, isDir)) {
                continue;
            }
            quint64 size = 0;
            if (isDir) {
                std::error_code dirEc;
                const fs::path canonicalDir =
                    fs::canonical(QFile::encodeName(info.absoluteFilePath()).toStdString(), dirEc);
                Pending next{path, here.chain};
                next.chain.append(dirEc ? fs::path() : canonicalDir);
                pending.append(std::move(next));
                continue;
            }
            if (info.isSymLink()) {
                const fs::path link = QFile::encodeName(info.absoluteFilePath()).toStdString();
                if (!followLinks) {
                    if (auto ok = checkLink(link, path, root, folder); !ok) {
                        return relay(ok);
                    }
                    entries.append({path, 0, true});
                    continue;
                }
                auto target = followLink(link, path, here.chain, folder);
                if (!target) {
                    return relay(target);
                }
                if (target->isDir) {
                    Pending next{path, here.chain};
                    next.chain.append(target->path);
                    pending.append(std::move(next));
                    continue;
                }
                size = target->size;
            } else if (info.isFile()) {
                size = quint64(info.size());
            } else {
                continue; // sockets, pipes, devices: not code, not shipped
            }
            entries.append({path, size, false});
            total += size;
            if (total > maxBytes) {
                return relay(tooLarge(folder, entries, total, maxBytes));
            }
        }
    }
    return entries;
}

Result<void> checkWorkdir(const v1::JobSpec& spec) {
    const v1::ModelSpec& model = spec.model();
    if (model.workdir().empty()) {
        return {};
    }
    auto scanned = scanWorkdir(QString::fromStdString(model.workdir()), workdirMaxBytes(model),
                               model.workdir_follow_links());
    if (!scanned) {
        return relay(scanned);
    }
    return {};
}

} // namespace tessera
