// Everything a test does differently under a sanitizer, in one place (ARCHITECTURE.md §8): a
// check that a sanitizer's own machinery would make meaningless is adapted here, saying why, and
// nowhere else.
#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace tessera::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif

/// While it lives, the processes a test starts run without AddressSanitizer's quarantine, for a
/// test that bounds their resident memory. ASan keeps freed blocks aside (256 MiB by default) to
/// catch a use after free, and a bound on RSS would count them as the program's: the worker after
/// 50 jobs held 7.7 times its fresh RSS with the quarantine, 1.4 times without (as without ASan).
/// Every other check of ASan stays on. Does nothing in builds without ASan.
class WithoutAsanQuarantine {
public:
    WithoutAsanQuarantine() : m_before(qgetenv("ASAN_OPTIONS")) {
        if (kAddressSanitizer) {
            qputenv("ASAN_OPTIONS",
                    m_before + (m_before.isEmpty() ? "" : ":") + "quarantine_size_mb=0");
        }
    }
    ~WithoutAsanQuarantine() {
        if (kAddressSanitizer) {
            qputenv("ASAN_OPTIONS", m_before);
        }
    }
    WithoutAsanQuarantine(const WithoutAsanQuarantine&) = delete;
    WithoutAsanQuarantine& operator=(const WithoutAsanQuarantine&) = delete;

private:
    QByteArray m_before;
};

} // namespace tessera::test
