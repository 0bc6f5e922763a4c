// A server's device samples, live (see telemetryfeed.h).
#include "backend/client/telemetryfeed.h"

#include "backend/client/rpcstream.h"
#include "backend/core/jobtypes.h"
#include "backend/service/backendclient.h"
#include "tessera/backend/v1/backend.grpc.pb.h"
#include "worker/common/tsan_handoff.h"

namespace tessera::client {

namespace bv1 = tessera::backend::v1;

TelemetryFeed::TelemetryFeed(std::shared_ptr<BackendClient> client, QObject* parent)
    : QObject(parent), m_client(std::move(client)) {
    registerBackendMetaTypes();
    qRegisterMetaType<tessera::v1::TelemetrySample>();
}

TelemetryFeed::~TelemetryFeed() {
    stop();
}

void TelemetryFeed::start() {
    if (m_stream) {
        return;
    }
    auto call = [this](grpc::ClientContext& context) {
        auto reader = m_client->stub().WatchTelemetry(&context, bv1::WatchTelemetryRequest());
        bv1::TelemetryUpdate update;
        while (reader->Read(&update)) {
            QMetaObject::invokeMethod(
                this,
                tsanHandOff([this, node = QString::fromStdString(update.node()),
                             sample = update.sample()] { Q_EMIT sampleReceived(node, sample); }),
                Qt::QueuedConnection);
        }
        return reader->Finish();
    };
    auto ended = [](const grpc::Status& status) {
        return status.error_code() != grpc::StatusCode::UNAUTHENTICATED &&
               status.error_code() != grpc::StatusCode::PERMISSION_DENIED;
    };
    m_stream = std::make_unique<RpcStream>(std::move(call), std::move(ended));
    m_stream->start();
}

void TelemetryFeed::stop() {
    if (m_stream) {
        m_stream->stop();
    }
}

} // namespace tessera::client
