// Runs a blocking call (a gRPC client's) on another thread while the test's thread keeps serving
// its event loop (an in-process backend answers on it).
#pragma once

#include <QTest>

#include <chrono>
#include <future>

namespace tessera::test {

/// `fn()` on another thread; its result once it returned. A call still running after 60 s ends
/// the test (qFatal): a hang is a failure, not a wait.
template <typename F> auto offThread(F fn) -> decltype(fn()) {
    auto result = std::async(std::launch::async, std::move(fn));
    if (!QTest::qWaitFor(
            [&] { return result.wait_for(std::chrono::seconds(0)) == std::future_status::ready; },
            60000)) {
        qFatal("a blocking call did not return within 60 s");
    }
    return result.get();
}

} // namespace tessera::test
