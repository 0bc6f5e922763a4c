// IDX .gz reader (see idx_file.h): zlib's gzopen/gzread, big-endian header, strict length checks.
#include "worker/train/idx_file.h"

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace tessera::train {

namespace {

struct GzCloser {
    void operator()(gzFile_s* f) const { gzclose(f); }
};
using GzHandle = std::unique_ptr<gzFile_s, GzCloser>;

std::uint32_t bigEndian(const unsigned char b[4]) {
    return (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) | (std::uint32_t(b[2]) << 8) |
           std::uint32_t(b[3]);
}

std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

// Reads exactly `n` bytes; false on a short read or a zlib error (message in `why`).
bool readExactly(gzFile f, void* dst, std::size_t n, std::string& why) {
    auto* out = static_cast<unsigned char*>(dst);
    while (n > 0) {
        const unsigned chunk = n > (1u << 30) ? (1u << 30) : unsigned(n);
        const int got = gzread(f, out, chunk);
        if (got < 0) {
            int errnum = 0;
            const char* msg = gzerror(f, &errnum);
            why = std::string("corrupt gzip data (") + (msg ? msg : "zlib error") + ")";
            return false;
        }
        if (got == 0) {
            int errnum = 0;
            const char* msg = gzerror(f, &errnum);
            why = errnum != Z_OK && msg && *msg ? std::string("corrupt gzip data (") + msg + ")"
                                                : std::string("file is truncated");
            return false;
        }
        out += got;
        n -= std::size_t(got);
    }
    return true;
}

} // namespace

Result<IdxFile> readIdxFile(const std::string& path, std::uint32_t expectedMagic,
                            const std::string& packageHint) {
    const auto bad = [&](const std::string& what) {
        return fail(ErrorCode::InvalidArgument,
                    "IDX file " + path + " is unusable: " + what + "; " + packageHint);
    };
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return fail(ErrorCode::NotFound, "IDX file " + path + " is missing; " + packageHint);
    }
    GzHandle f(gzopen(path.c_str(), "rb"));
    if (!f) {
        return fail(ErrorCode::Io,
                    "cannot open IDX file " + path + " (permission?); " + packageHint);
    }
    gzbuffer(f.get(), 1 << 17);

    std::string why;
    unsigned char header[4];
    if (!readExactly(f.get(), header, 4, why)) {
        return bad(why + " while reading the magic number");
    }
    const std::uint32_t magic = bigEndian(header);
    if (magic != expectedMagic) {
        return bad("magic number " + hex(magic) + ", expected " + hex(expectedMagic));
    }
    const unsigned ndim = magic & 0xffu;
    IdxFile idx;
    std::size_t total = 1;
    for (unsigned d = 0; d < ndim; ++d) {
        if (!readExactly(f.get(), header, 4, why)) {
            return bad(why + " while reading dimension " + std::to_string(d));
        }
        const std::uint32_t dim = bigEndian(header);
        if (dim == 0 || dim > (1u << 24)) {
            return bad("dimension " + std::to_string(d) + " is " + std::to_string(dim));
        }
        idx.dims.push_back(dim);
        total *= dim;
        if (total > (std::size_t(1) << 32)) {
            return bad("more than 4 GiB of data declared");
        }
    }
    idx.data.resize(total);
    if (!readExactly(f.get(), idx.data.data(), total, why)) {
        return bad(why + " (expected " + std::to_string(total) + " data bytes)");
    }
    unsigned char extra;
    const int more = gzread(f.get(), &extra, 1);
    if (more != 0) {
        return bad(more < 0 ? "corrupt gzip data after the last item"
                            : "trailing bytes after the declared data");
    }
    return idx;
}

} // namespace tessera::train
