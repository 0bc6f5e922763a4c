// Holding a rank program before chosen steps, so that "the job is still running" is a certainty
// for whoever needs it (a test that cuts a stream, cancels or kills mid-run; a person reading a
// rank's state with a debugger), not a bet on how fast the machine is.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <unistd.h>

namespace tessera {

/// With the environment variable TESSERA_HOLD_DIR=D, wait(s) returns only once the file
/// D/hold-<s> does not exist (polled every 5 ms): create hold-201 before the launch and the
/// rank stops before its step 201 until the file is removed. The other ranks of the job then
/// wait in that step's first collective. Without the variable (every normal run), wait() is one
/// test of an empty string. Used by tessera-train and the tests' tessera-test-emitter.
class StepHold {
public:
    /// Reads TESSERA_HOLD_DIR once.
    static StepHold fromEnvironment() {
        const char* dir = std::getenv("TESSERA_HOLD_DIR");
        return StepHold(dir ? dir : "");
    }
    explicit StepHold(std::string dir) : m_dir(std::move(dir)) {}

    /// Blocks while D/hold-`step` exists (`step` counts from 1, as the metric lines do).
    void wait(std::int64_t step) const {
        if (m_dir.empty()) {
            return;
        }
        const std::string file = m_dir + "/hold-" + std::to_string(step);
        while (::access(file.c_str(), F_OK) == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }

private:
    std::string m_dir;
};

} // namespace tessera
