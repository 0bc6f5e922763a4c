// A control-API stream's queue (StreamQueue): first in, first out, ended once drained, and
// bounded: a client that stops reading is cut with RESOURCE_EXHAUSTED once 200,000 updates wait,
// instead of growing the server (it comes back with backfill from its last seq and loses nothing,
// tst_serverconnection).
#include "backend/service/updatequeue.h"

#include <QElapsedTimer>
#include <QTest>

#include <future>
#include <thread>

using namespace tessera;
namespace bv1 = tessera::backend::v1;

namespace {

bv1::JobUpdate point(quint64 seq) {
    bv1::JobUpdate u;
    u.mutable_metric()->set_seq(seq);
    return u;
}

} // namespace

class TestStreamQueue : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void updatesComeInOrderThenTheEnd() {
        UpdateQueue q;
        for (quint64 s = 1; s <= 3; ++s) {
            q.push(point(s));
        }
        q.close(grpc::Status::OK);
        q.push(point(4)); // after the end: dropped
        QVERIFY(q.closed());
        QVERIFY(!q.finished()); // three still wait
        for (quint64 s = 1; s <= 3; ++s) {
            auto next = q.pop(std::chrono::milliseconds(0));
            QVERIFY(next);
            QCOMPARE(next->metric().seq(), s);
        }
        QVERIFY(!q.pop(std::chrono::milliseconds(0)));
        QVERIFY(q.finished());
        QVERIFY(q.end().ok());
    }

    void aReaderThatStopsIsCutAtTheBound() {
        UpdateQueue q;
        for (quint64 s = 1; s <= UpdateQueue::kMaxItems; ++s) {
            q.push(point(s));
        }
        QVERIFY(!q.closed()); // exactly the bound still waits
        q.push(point(UpdateQueue::kMaxItems + 1));
        QVERIFY(q.closed());
        QVERIFY(q.finished()); // what waited is dropped: the client asks again from its last seq
        QCOMPARE(q.end().error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
        QVERIFY2(q.end().error_message().find("last seq") != std::string::npos,
                 q.end().error_message().c_str());
        q.close(grpc::Status::OK); // a later end does not replace the first
        QCOMPARE(q.end().error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    }

    void aWaitingReaderWakesForAnUpdate() {
        ClusterQueue q;
        std::promise<void> popping;
        std::thread writer([&, ready = popping.get_future()] {
            ready.wait(); // the reader is about to wait (or waits already)
            bv1::ClusterSnapshot s;
            s.set_time_ms(42);
            q.push(s);
        });
        QElapsedTimer waited;
        waited.start();
        popping.set_value();
        auto next = q.pop(std::chrono::seconds(60));
        writer.join();
        QVERIFY(next);
        // Woken by the push, not by the end of its wait: far below 60 s on any machine.
        QVERIFY2(waited.elapsed() < 30000, qPrintable(QString::number(waited.elapsed())));
        QCOMPARE(next->time_ms(), 42);
    }
};

QTEST_GUILESS_MAIN(TestStreamQueue)
#include "tst_streamqueue.moc"
