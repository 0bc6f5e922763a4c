// Batched writes of metric points and log lines on a writer thread (see storebatcher.h).
#include "backend/history/storebatcher.h"

#include "backend/core/logging.h"
#include "worker/common/tsan_handoff.h"

namespace tessera {

namespace {
/// Runs `f` on `target`'s thread (`type`: Qt::QueuedConnection, or Qt::BlockingQueuedConnection,
/// which returns once `f` has run). Qt's event queue orders the call after what this thread did
/// before; tsanHandOff shows that to ThreadSanitizer (see worker/common/tsan_handoff.h).
template <typename F> void callOn(QObject* target, F f, Qt::ConnectionType type) {
    QMetaObject::invokeMethod(target, tsanHandOff(std::move(f)), type);
}
} // namespace

/// Owns the writer thread's connection; every call runs on that thread.
class StoreBatcher::Writer : public QObject {
public:
    bool open(const QString& path) {
        if (Result<void> opened = m_store.open(path); !opened) {
            qCWarning(lcStore).noquote() << "the metric writer thread cannot open" << path << ":"
                                         << QString::fromStdString(opened.error().message)
                                         << "; writing on the GUI thread instead";
            return false;
        }
        return true;
    }
    void write(const Batch& batch, const std::shared_ptr<std::atomic<int>>& inFlight) {
        batch.writeTo(m_store);
        inFlight->fetch_sub(batch.size());
    }

private:
    MetricStore m_store;
};

void StoreBatcher::Batch::writeTo(MetricStore& store) const {
    if (!points.isEmpty()) {
        store.addPoints(points);
    }
    if (!logs.isEmpty()) {
        store.addLogs(logs);
    }
    if (!telemetry.isEmpty()) {
        store.addTelemetry(telemetry);
    }
}

StoreBatcher::StoreBatcher(MetricStore* store, QObject* parent) : QObject(parent), m_store(store) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, &StoreBatcher::flush);
    const QString path = store != nullptr && store->isOpen() ? store->path() : QString();
    if (path.isEmpty() || path == QLatin1String(":memory:")) {
        return; // no file a second connection could share
    }
    m_thread.setObjectName(QStringLiteral("metric-writer"));
    m_thread.start();
    auto* writer = new Writer;
    writer->moveToThread(&m_thread);
    std::atomic<bool> opened = false; // written there, read here: ordered for ThreadSanitizer too
    callOn(
        writer, [writer, path, &opened] { opened = writer->open(path); },
        Qt::BlockingQueuedConnection);
    if (opened) {
        m_writer = writer;
    } else {
        callOn(
            writer, [writer] { delete writer; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
}

StoreBatcher::~StoreBatcher() {
    drain();
    if (m_writer != nullptr) {
        Writer* writer = m_writer;
        callOn(
            writer, [writer] { delete writer; }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
}

void StoreBatcher::schedule() {
    if (!m_timer.isActive()) {
        m_timer.start();
    }
}

void StoreBatcher::addPoint(const MetricPoint& point) {
    if (m_store == nullptr) {
        return;
    }
    m_batch.points.append(point);
    schedule();
}

void StoreBatcher::addLog(const QString& jobId, const LogRecord& line) {
    if (m_store == nullptr) {
        return;
    }
    m_batch.logs.append({jobId, line});
    schedule();
}

void StoreBatcher::addTelemetry(const TelemetryRecord& record) {
    if (m_store == nullptr) {
        return;
    }
    m_batch.telemetry.append(record);
    schedule();
}

void StoreBatcher::flush() {
    m_timer.stop();
    if (m_store == nullptr || m_batch.size() == 0) {
        return;
    }
    const Batch batch = std::exchange(m_batch, {});
    if (m_writer == nullptr) {
        batch.writeTo(*m_store);
        return;
    }
    m_inFlight->fetch_add(batch.size());
    Writer* writer = m_writer;
    callOn(
        writer, [writer, batch, n = m_inFlight] { writer->write(batch, n); }, Qt::QueuedConnection);
}

void StoreBatcher::drain() {
    flush();
    if (m_writer != nullptr) {
        // Runs after every batch queued before it: when it returns, all are written.
        callOn(
            m_writer, [] {}, Qt::BlockingQueuedConnection);
    }
}

} // namespace tessera
