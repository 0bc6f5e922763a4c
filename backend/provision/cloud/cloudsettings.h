// Where Tessera's GPU clouds are set up: the API URL (the real one unless a test double is named),
// the instances' login, the preferred regions, and the API key from its 0600 file. One place for
// the app and tessera-ctl to build a cloud provider the same way.
#pragma once

#include "backend/provision/cloud/cloudkeyring.h"
#include "worker/common/error.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace tessera {

class CloudProvider;
class ClusterRegistry;
class LeaseStore;

/// One cloud's settings: <cloudDir>/<id>.json {"apiUrl", "sshUser", "regions": [...],
/// "pace": {"requestIntervalMs", "launchIntervalMs"}}, every field optional; the environment
/// overrides the file (TESSERA_LAMBDA_API_URL, TESSERA_LAMBDA_SSH_USER for Lambda).
struct CloudSettings {
    QString apiUrl;      ///< "" = the cloud's own
    QString sshUser;     ///< "" = the image's default login
    QStringList regions; ///< tried first, in this order, among those with capacity
    /// Spacing of API requests, ms, 0..600000 each (-1 = the cloud's documented limits). For an
    /// account whose limits differ; 0 turns the spacing off (a 429 is still waited out).
    int requestIntervalMs = -1;
    int launchIntervalMs = -1;
};

/// The settings of cloud `providerId` ("lambda"). A missing file is all defaults. Errors:
/// InvalidArgument naming the file (not JSON, a field of the wrong type) or the URL (not https,
/// see CloudHttp::checkBaseUrl).
Result<CloudSettings> loadCloudSettings(const QString& providerId);

/// Lambda Cloud as a provider, from its settings. `problem` receives why the settings could not
/// be used ("" when they could). It has no key yet: loadCloudApiKey gives it one. Not restored
/// yet: call restore() once the caller is wired to its signals and the key is loaded.
std::unique_ptr<CloudProvider> makeLambdaProvider(ClusterRegistry* registry, LeaseStore* store,
                                                  QString* problem);

/// Reads the provider's key (readCloudApiKey: the keyring, else the 0600 file) and hands it to
/// its API; then `done` with "" or why the key could not be used (a file others can read). No
/// key at all is no problem: the provider then says how to add one.
void loadCloudApiKey(CloudProvider* provider, std::function<void(QString problem)> done);

/// Stores `key` as the provider's API key (storeCloudApiKey: the keyring, else a 0600 file),
/// hands it to its API, reconciles and lists the offers again; `done` gets where the key went.
void setCloudApiKey(CloudProvider* provider, const QString& key,
                    std::function<void(Result<KeyPlace>)> done);

} // namespace tessera
