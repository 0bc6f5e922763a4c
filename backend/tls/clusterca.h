// The cluster CA on disk (issue 20): created on first use in <data folder>/tls, it issues each
// rented worker its certificate and gives the backend the client identity it connects with.
#pragma once

#include "backend/tls/certificate_authority.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace tessera {

/// The CA key (ca.key, mode 0600), its certificate (ca.crt) and the backend's client identity
/// (backend.key 0600, backend.crt) in one folder (mode 0700). Creating them is guarded by a
/// lock file, so the app and tessera-ctl starting together make one CA, not two.
class ClusterCa {
public:
    /// Days a worker certificate is valid. Renewal is by re-rent: every rent issues a new one.
    static constexpr int kWorkerDays = 90;
    /// Days the CA certificate is valid; the backend's own certificate is reissued when it has
    /// less than 30 days left.
    static constexpr int kCaDays = 3650;

    /// Opens the CA in `folder` (default <dataDir()>/tls), creating what is missing. Errors: Io
    /// naming the file and what to do; InvalidArgument when a file there is not the CA's PEM
    /// or its key does not match (a person moved files: delete the folder to start a new CA,
    /// then re-rent every worker).
    static Result<ClusterCa> open(const QString& folder = QString());

    /// The folder, and the CA certificate's path (what `tessera-worker --tls-ca` is given).
    QString folder() const { return m_folder; }
    QString caCertPath() const;

    /// The CA certificate, PEM.
    const std::string& caCertPem() const { return m_ca.certPem; }

    /// The backend's identity for WorkerClient: its certificate, key and the CA.
    std::shared_ptr<const tls::Identity> backendIdentity() const { return m_backend; }

    /// A fresh key and certificate for a worker reached as `hosts` (host names and IP literals,
    /// all put in its subjectAltName; "localhost" and 127.0.0.1 are added so a worker can be
    /// reached through an SSH tunnel too), valid kWorkerDays. Errors: InvalidArgument for an
    /// empty list or a host that is neither a DNS name nor an IP literal.
    Result<tls::KeyAndCert> issueWorker(const QString& name, const QStringList& hosts) const;

    /// A fresh key and certificate for tessera-server reached as `hosts` (as issueWorker: CN
    /// "tessera-server", "localhost" and 127.0.0.1 added), valid kWorkerDays. Errors: those of
    /// issueWorker.
    Result<tls::KeyAndCert> issueServer(const QStringList& hosts) const;

    /// Signs `subject` for `days` days with this CA (ClientCertificates issues people's
    /// certificates through it). Errors: those of tls::issue.
    Result<tls::KeyAndCert> issue(const tls::Subject& subject, int days) const;

    /// The CA of `folder` (default <dataDir()>/tls), opened once per folder and process and
    /// shared: what providers use when they rent. Errors: those of open().
    static Result<std::shared_ptr<const ClusterCa>> shared(const QString& folder = QString());

private:
    /// `commonName` with `hosts` (and localhost) as subjectAltName. Errors: InvalidArgument for
    /// an empty list or a host that is neither a DNS name nor an IP literal, naming `who`.
    static Result<tls::Subject> hostSubject(const std::string& commonName, const QString& who,
                                            const QStringList& hosts);

    QString m_folder;
    tls::KeyAndCert m_ca;
    std::shared_ptr<const tls::Identity> m_backend;
};

} // namespace tessera
