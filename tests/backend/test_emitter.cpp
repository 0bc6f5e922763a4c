// tessera-test-emitter: a tiny rank program for backend tests (no Qt, no shell). Rank 0 prints
// `@tessera {"step":i,...}` lines every --interval-ms (or --interval-us, for the monitor
// benchmark's 1,000 lines per second; each line then carries "t_us", the Unix time in µs at which
// it was printed); every rank exits with --exit-code. Like tessera-train it holds before a step
// while TESSERA_HOLD_DIR/hold-<step> exists (worker/common/step_hold.h).
#include "worker/common/step_hold.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

int main(int argc, char** argv) {
    int lines = 20;
    int intervalMs = 10;
    int intervalUs = 0;
    int exitCode = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const int value = std::atoi(argv[i + 1]);
        if (flag == "--lines") {
            lines = value;
        } else if (flag == "--interval-ms") {
            intervalMs = value;
        } else if (flag == "--interval-us") {
            intervalUs = value;
        } else if (flag == "--exit-code") {
            exitCode = value;
        } else {
            std::fprintf(stderr, "tessera-test-emitter: unknown flag %s\n", flag.c_str());
            return 2;
        }
    }
    const char* rankEnv = std::getenv("OMPI_COMM_WORLD_RANK");
    const int rank = rankEnv ? std::atoi(rankEnv) : 0;
    if (rank == 0) {
        using Clock = std::chrono::system_clock;
        const tessera::StepHold hold = tessera::StepHold::fromEnvironment();
        const auto start = Clock::now();
        for (int step = 1; step <= lines; ++step) {
            hold.wait(step);
            if (intervalUs > 0) { // paced by the clock, not by sleep's overshoot
                std::this_thread::sleep_until(
                    start + std::chrono::microseconds(std::int64_t(intervalUs) * step));
                const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                                    Clock::now().time_since_epoch())
                                    .count();
                std::printf("@tessera {\"step\":%d,\"rank\":0,\"loss\":%.6f,\"t_us\":%lld}\n", step,
                            2.0 / step, static_cast<long long>(us));
                std::fflush(stdout);
                continue;
            }
            std::printf("@tessera {\"step\":%d,\"rank\":0,\"epoch\":%.4f,\"loss\":%.6f,"
                        "\"samples_per_s\":%d}\n",
                        step, step / static_cast<double>(lines), 2.0 / step, 1000 + step);
            if (step % 10 == 0) {
                std::printf("emitter: %d lines so far\n", step);
            }
            std::fflush(stdout);
            std::this_thread::sleep_for(std::chrono::milliseconds(intervalMs));
        }
    }
    if (exitCode != 0) {
        std::fprintf(stderr, "tessera-test-emitter: failing on purpose with exit code %d\n",
                     exitCode);
    }
    return exitCode;
}
