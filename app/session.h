// The backend objects one app window works with: metric store, cluster registry, local
// provider and job controller, created and destroyed in the right order.
#pragma once

#include <QObject>
#include <QString>

#include <memory>

namespace tessera {

class ClusterRegistry;
class JobController;
class LocalProvider;
class MetricStore;

/// Owns the backend for the app. Destruction order: controller, provider (stops the local
/// workers, bounded wait), registry, store.
class AppSession : public QObject {
    Q_OBJECT
public:
    /// Opens the SQLite history at `storePath` (empty = MetricStore::defaultPath(), which honours
    /// TESSERA_DATA_DIR). If that fails the app still works without history: store() is null
    /// and storeError() says why.
    explicit AppSession(const QString& storePath = QString(), QObject* parent = nullptr);
    ~AppSession() override;

    /// Why the history could not be opened; empty when it is open.
    QString storeError() const { return m_storeError; }

    ClusterRegistry* registry() const { return m_registry.get(); }
    LocalProvider* provider() const { return m_provider.get(); }
    JobController* controller() const { return m_controller.get(); }
    MetricStore* store() const { return m_store.get(); }

private:
    std::unique_ptr<MetricStore> m_store;
    std::unique_ptr<ClusterRegistry> m_registry;
    std::unique_ptr<LocalProvider> m_provider;
    std::unique_ptr<JobController> m_controller;
    QString m_storeError;
};

} // namespace tessera
