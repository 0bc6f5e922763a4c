// ThreadSanitizer annotations for a handoff between threads that happens inside a library built
// without -fsanitize=thread (Debian's gRPC, abseil and Qt): there the synchronisation is real but
// invisible to ThreadSanitizer, which then reports every value handed over as a data race.
// Without -fsanitize=thread every function here is an empty inline.
//
// A gRPC callback reactor (worker/daemon/service/: stream_session.h, exec_session.cpp) uses them
// so: tsanHandedOver(this) right before each call that hands the reactor to gRPC's threads
// (StartRead, StartWrite, Finish), and tsanReceived(this) first in each callback (OnReadDone,
// OnWriteDone, OnCancel, OnDone). Two callbacks that really run at once (a read and a write) still
// race where they share data.
//
// Work handed to another thread as a callable (Qt's QThreadPool::start, QMetaObject::invokeMethod
// from a pool thread back to an object's thread) goes in a TsanHandOff: tsanHandOff([..] {..}).
#pragma once

#include <utility>

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

/// A callable that another thread runs after a handoff ThreadSanitizer cannot see. Every
/// construction (the first, and each move or copy a queue makes) ends with a release on the
/// wrapper's own address and every call begins with an acquire on it, so what was written into
/// it (the captured values) and everything the handing thread did before happen before the call.
/// A call also ends with a release and the destructor begins with an acquire: Qt destroys a
/// queued functor on whichever thread drops the last reference, often the handing thread after
/// the call (TSan saw the captured JobUpdate's destructor race with the call that read it).
/// Whatever the callable writes for the handing thread to read afterwards needs its own
/// synchronisation (an atomic, a mutex). Costs nothing without -fsanitize=thread.
template <typename F> class TsanHandOff {
public:
    explicit TsanHandOff(F f) : m_f(std::move(f)) { tsanHandedOver(this); }
    /// A move or copy may run on the receiving thread (QtConcurrent moves its callable out of its
    /// task there): it acquires on `other` before it reads it.
    TsanHandOff(TsanHandOff&& other) noexcept(noexcept(F(std::move(other.m_f))))
        : m_f((tsanReceived(&other), std::move(other.m_f))) {
        tsanHandedOver(this);
    }
    TsanHandOff(const TsanHandOff& other) : m_f((tsanReceived(&other), other.m_f)) {
        tsanHandedOver(this);
    }
    TsanHandOff& operator=(const TsanHandOff&) = delete;
    TsanHandOff& operator=(TsanHandOff&&) = delete;
    ~TsanHandOff() { tsanReceived(this); }

    template <typename... Args> decltype(auto) operator()(Args&&... args) {
        tsanReceived(this);
        const ReleaseOnReturn release{this};
        return m_f(std::forward<Args>(args)...);
    }

private:
    /// The release that ends a call, after the callable has returned.
    struct ReleaseOnReturn {
        const void* token;
        ~ReleaseOnReturn() { tsanHandedOver(token); }
    };
    F m_f;
};

/// `f` wrapped for a handoff to another thread (see TsanHandOff).
template <typename F> TsanHandOff<F> tsanHandOff(F f) {
    return TsanHandOff<F>(std::move(f));
}

} // namespace tessera
