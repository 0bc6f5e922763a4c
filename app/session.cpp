// The backend objects of the app, created and destroyed in dependency order.
#include "session.h"

#include "clusterregistry.h"
#include "jobcontroller.h"
#include "jobtypes.h"
#include "localprovider.h"
#include "metricstore.h"

namespace tessera {

AppSession::AppSession(const QString& storePath, QObject* parent)
    : QObject(parent), m_store(std::make_unique<MetricStore>()),
      m_registry(std::make_unique<ClusterRegistry>()),
      m_provider(std::make_unique<LocalProvider>(m_registry.get())) {
    registerBackendMetaTypes();
    const QString path = storePath.isEmpty() ? MetricStore::defaultPath() : storePath;
    if (!m_store->open(path, &m_storeError)) {
        if (m_storeError.isEmpty())
            m_storeError = tr("cannot open the history database '%1'").arg(path);
        m_store.reset();
    }
    m_controller = std::make_unique<JobController>(m_registry.get(), m_store.get());
}

AppSession::~AppSession() {
    m_controller.reset();
    m_provider.reset();
    m_registry.reset();
    m_store.reset();
}

} // namespace tessera
