// Packs a user program's model.workdir into a reproducible tar (same files → same bytes → same
// SHA-256), honouring the folder's .tesseraignore, so each worker gets the code once.
#pragma once

#include "worker/common/error.h"

#include <QString>
#include <QStringList>

namespace tessera {

/// A packed workdir: the tar file and what is in it.
struct PackedWorkdir {
    QString tarPath;   ///< the tar file (the caller removes it)
    QString sha256;    ///< of the tar file, lower-case hex
    quint64 bytes = 0; ///< the tar file's size
    int files = 0;     ///< regular files and symbolic links packed
};

/// .tesseraignore rules, gitignore's form: one pattern per line, `#` comments, `!` re-includes,
/// a trailing `/` matches folders only, a leading or inner `/` anchors the pattern at the
/// workdir's root (else it matches a name at any depth), `*`, `?` and `[…]` as in globs, `**`
/// any number of folders. `.git/` and `__pycache__/` are always ignored.
class IgnoreRules {
public:
    /// Parses the text of a .tesseraignore file.
    explicit IgnoreRules(const QString& text = QString());
    /// True when `relativePath` (with '/' separators, no leading '/') is left out.
    bool ignores(const QString& relativePath, bool isDir) const;

private:
    struct Rule {
        QString regex; ///< anchored regular expression over the relative path
        bool negate = false;
        bool dirOnly = false;
    };
    QList<Rule> m_rules;
};

/// Packs `folder` into a tar under `outDir`: regular files and symbolic links (or, with
/// `followLinks`, what the links lead to), sorted by path, owner 0, mtime 0, GNU format, so
/// unchanged code packs to the same bytes.
/// Errors: those of scanWorkdir (no such folder, more than `maxBytes`, a link that leaves the
/// folder, dangles where followed, or loops), Io when tar fails. Blocking.
Result<PackedWorkdir> packWorkdir(const QString& folder, quint64 maxBytes, const QString& outDir,
                                  bool followLinks = false);

} // namespace tessera
