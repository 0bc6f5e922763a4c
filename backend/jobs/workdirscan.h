// What of a user program's model.workdir would be shipped, checked before anything is rented:
// that it is a folder, that it is within its size limit, and that no symbolic link in it points
// outside it or round in a loop (issue 45).
#pragma once

#include "tessera/v1/job.pb.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>

namespace tessera {

/// One file the workdir ships: a regular file, or a symbolic link kept as a link.
struct WorkdirEntry {
    QString path;      ///< relative to the workdir, '/' separators
    quint64 size = 0;  ///< bytes (0 for a link)
    bool link = false; ///< a symbolic link kept as one (its target stays inside the workdir)
};

/// Largest packed workdir when model.workdirMaxMib is 0: 256 MiB.
constexpr quint64 kDefaultWorkdirMaxBytes = quint64(256) << 20;

/// The byte limit a spec sets for its workdir: model.workdirMaxMib MiB, 0 = the default.
quint64 workdirMaxBytes(const v1::ModelSpec& model);

/// Walks `folder` as packWorkdir ships it (honouring its .tesseraignore, not entering ignored
/// folders) and stops at the first problem, so that `/` or a home folder is refused in moments
/// rather than read whole. Entries come unsorted.
///
/// Symbolic links: without `followLinks` each ships as the link it is, and one that points
/// outside the folder (by its own target or through other links: "a/b → ../../etc/hostname")
/// is refused. With `followLinks` (model.workdirFollowLinks) each ships as what it leads to, as
/// `tar --dereference` and `rsync -L` do: a file's bytes, a folder's files (walked in turn), and
/// one that dangles or leads to a folder holding itself is refused.
/// Errors: NotFound when `folder` is not a folder; InvalidArgument for `/` itself, when the files
/// add up to more than `maxBytes` (naming the largest seen and .tesseraignore), for the links
/// above and for a loop of links; each naming the link and what to do.
Result<QList<WorkdirEntry>> scanWorkdir(const QString& folder, quint64 maxBytes,
                                        bool followLinks = false);

/// scanWorkdir of the spec's model.workdir with its limit; nothing when the spec ships none.
/// Blocking (a walk of the folder): for tessera-ctl and worker threads, not the GUI thread.
Result<void> checkWorkdir(const v1::JobSpec& spec);

} // namespace tessera
