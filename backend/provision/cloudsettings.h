// Where Tessera's GPU clouds are set up: the API URL (the real one unless a test double is named),
// the instances' login, the preferred regions, and the API key from its 0600 file. One place for
// the app and tessera-ctl to build a cloud provider the same way.
#pragma once

#include "worker/common/error.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace tessera {

class CloudProvider;
class ClusterRegistry;
class LeaseStore;

/// One cloud's settings: <cloudDir>/<id>.json {"apiUrl", "sshUser", "regions": [...]}, every
/// field optional; the environment overrides the file (TESSERA_LAMBDA_API_URL,
/// TESSERA_LAMBDA_SSH_USER for Lambda).
struct CloudSettings {
    QString apiUrl;      ///< "" = the cloud's own
    QString sshUser;     ///< "" = the image's default login
    QStringList regions; ///< tried first, in this order, among those with capacity
};

/// The settings of cloud `providerId` ("lambda"). A missing file is all defaults. Errors:
/// InvalidArgument naming the file (not JSON, a field of the wrong type) or the URL (not https,
/// see CloudHttp::checkBaseUrl).
Result<CloudSettings> loadCloudSettings(const QString& providerId);

/// Lambda Cloud as a provider: its settings, and its key from apiKeyPath("lambda") when there is
/// one (without, the provider lists nothing and every rent says how to add a key). `problem`
/// receives why the settings or the key could not be used ("" when they could). The provider
/// is not restored yet: call restore() once the caller is wired to its signals.
std::unique_ptr<CloudProvider> makeLambdaProvider(ClusterRegistry* registry, LeaseStore* store,
                                                  QString* problem);

/// Stores `key` as cloud `providerId`'s API key (0600 file) and hands it to `provider` (may be
/// null). Errors: those of writeApiKeyFile.
Result<void> setCloudApiKey(CloudProvider* provider, const QString& providerId, const QString& key);

} // namespace tessera
