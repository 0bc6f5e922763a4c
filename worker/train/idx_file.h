// IDX file reader (the format of MNIST / Fashion-MNIST) for gzip-compressed files, via zlib.
// Format: big-endian magic 0x00000800 | type | ndim, then ndim big-endian uint32 dims, then data.
#pragma once

#include "worker/common/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::train {

/// Magic number of an IDX file of unsigned bytes with 3 dims (images: count, rows, cols).
inline constexpr std::uint32_t kIdxImagesMagic = 0x00000803;
/// Magic number of an IDX file of unsigned bytes with 1 dim (labels: count).
inline constexpr std::uint32_t kIdxLabelsMagic = 0x00000801;

/// The contents of one IDX file of unsigned bytes: `dims` outermost first, `data` row-major
/// with dims[0] * dims[1] * ... bytes.
struct IdxFile {
    std::vector<std::uint32_t> dims;
    std::vector<std::uint8_t> data;
};

/// Reads a gzip-compressed (or plain: zlib reads both) IDX file and checks that its magic
/// number equals `expectedMagic` and that the data is exactly as long as its dims say.
/// Errors: NotFound when the file does not exist, InvalidArgument when it is truncated,
/// garbled or of the wrong kind, Io for other read failures. Every message names the file and
/// `packageHint` (e.g. "install the Debian package dataset-fashion-mnist").
Result<IdxFile> readIdxFile(const std::string& path, std::uint32_t expectedMagic,
                            const std::string& packageHint);

} // namespace tessera::train
