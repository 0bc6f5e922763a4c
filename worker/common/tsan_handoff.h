// ThreadSanitizer annotations for a handoff between threads that happens inside a library built
// without -fsanitize=thread (Debian's gRPC, abseil and Qt): there the synchronisation is real but
// invisible to ThreadSanitizer, which then reports every value handed over as a data race.
// Without -fsanitize=thread every function here is an empty inline.
//
// A gRPC callback reactor (worker/daemon/*_session.cpp) uses them so: tsanHandedOver(this) right
// before each call that hands the reactor to gRPC's threads (StartRead, StartWrite, Finish), and
// tsanReceived(this) first in each callback (OnReadDone, OnWriteDone, OnCancel, OnDone). Two
// callbacks that really run at once (a read and a write) still race where they share data.
#pragma once

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif

namespace tessera {

/// Everything the calling thread did so far happens before a later tsanReceived(token) on any
/// thread (__tsan_release: the release half of a release/acquire pair on the address `token`).
inline void tsanHandedOver([[maybe_unused]] const void* token) {
#if defined(__SANITIZE_THREAD__)
    __tsan_release(const_cast<void*>(token));
#endif
}

/// The acquire half: what other threads did before their tsanHandedOver(token) happens before
/// what the calling thread does next.
inline void tsanReceived([[maybe_unused]] const void* token) {
#if defined(__SANITIZE_THREAD__)
    __tsan_acquire(const_cast<void*>(token));
#endif
}

} // namespace tessera
