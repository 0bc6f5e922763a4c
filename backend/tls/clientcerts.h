// People's client certificates (issue 48): issued by the cluster CA for `tessera-ctl certify
// --client NAME`, each one a user of tessera-server; recorded under <CA folder>/clients and
// revoked by name into <CA folder>/revoked.txt, which the server's gate reads.
#pragma once

#include "backend/tls/certificate_authority.h"
#include "worker/common/error.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <mutex>
#include <set>
#include <string>

namespace tessera {

class ClusterCa;

/// The OU of a person's certificate: tessera-server admits a TLS client only when its certificate
/// says so (a worker's certificate, from the same CA, is no user).
inline constexpr const char* kUserUnit = "tessera users";

/// One client certificate the CA issued.
struct IssuedClient {
    QString user;       ///< the certificate's CN: the user's name
    QString serial;     ///< lowercase hex, as tls::CertificateInfo::serial
    QDateTime notAfter; ///< UTC
    bool revoked = false;
};

/// The client certificates of one cluster CA folder.
class ClientCertificates {
public:
    /// Days a person's certificate is valid.
    static constexpr int kClientDays = 365;

    /// `caFolder`: ClusterCa::folder().
    explicit ClientCertificates(QString caFolder);

    /// Why `name` cannot be a user's name ("" when it can): 1 to 64 of A-Z a-z 0-9 . _ @ -,
    /// starting with a letter or digit (it is a certificate's CN and shows in every audit line).
    static QString nameProblem(const QString& name);

    /// A new key and client certificate for `user` (CN = user, OU = kUserUnit, clientAuth only,
    /// kClientDays), recorded as clients/<user>-<serial>.crt. Errors: InvalidArgument for a bad
    /// name (nameProblem), Io when the record cannot be written.
    Result<tls::KeyAndCert> issue(const ClusterCa& ca, const QString& user) const;

    /// Revokes every certificate issued to `user`: their serials go into revoked.txt. Returns how
    /// many were newly revoked. Errors: NotFound when none was ever issued to `user` (naming who
    /// was), Io when revoked.txt cannot be written.
    Result<int> revoke(const QString& user) const;

    /// Every issued certificate, oldest first, with whether it is revoked.
    QList<IssuedClient> list() const;

    /// <caFolder>/revoked.txt: one "serial user revoked-at" line per revoked certificate.
    QString revokedPath() const;

private:
    QString m_folder;
};

/// The revoked serials of revoked.txt for the server's gate, read again whenever the file
/// changes (size or modification time), so a revocation takes effect at the next call without a
/// restart. Thread-safe: the gate calls it from gRPC's threads.
class RevocationList {
public:
    explicit RevocationList(QString path);
    /// True when `serial` (lowercase hex) is revoked. A revoked.txt that cannot be read counts as
    /// the last one read (and is logged once): a passing read error does not un-revoke anyone.
    bool isRevoked(const std::string& serial);

private:
    void reloadIfChanged();

    QString m_path;
    std::mutex m_mutex;
    std::set<std::string> m_serials;
    qint64 m_size = -1;
    QDateTime m_modified;
};

} // namespace tessera
