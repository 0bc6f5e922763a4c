// Checkpoint shards and manifests: atomic writes, verified reads, finding the latest complete
// step folder (see checkpoint.h). Integers are stored little-endian (the host order on every
// platform Tessera runs on: x86-64, aarch64).
#include "worker/train/checkpoint.h"

#include "tessera/v1/job.pb.h"

#include <google/protobuf/util/json_util.h>

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <unistd.h>

namespace tessera::train {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'T', 'S', 'R', 'C', 'K', 'P', 'T', '1'};
constexpr std::uint32_t kVersion = 1;
constexpr const char* kFormat = "tessera-checkpoint";
constexpr const char* kManifest = "manifest.json";

Failure ioError(const std::string& what, const std::string& path) {
    return fail(ErrorCode::Io, what + " " + path + ": " + std::strerror(errno));
}

/// Writes `bytes` to `path` atomically: a temp file in the same folder, fsync, rename over
/// `path`, fsync the folder (so the rename itself survives a crash).
Result<void> writeAtomically(const std::string& path, const std::string& bytes) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return ioError("cannot create checkpoint file", tmp);
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            auto e = ioError("cannot write checkpoint file", tmp);
            ::close(fd);
            ::unlink(tmp.c_str());
            return e;
        }
        done += std::size_t(w);
    }
    if (::fsync(fd) != 0) {
        auto e = ioError("cannot fsync checkpoint file", tmp);
        ::close(fd);
        ::unlink(tmp.c_str());
        return e;
    }
    if (::close(fd) != 0) {
        ::unlink(tmp.c_str());
        return ioError("cannot close checkpoint file", tmp);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        auto e = ioError("cannot rename checkpoint file onto", path);
        ::unlink(tmp.c_str());
        return e;
    }
    const std::string dir = fs::path(path).parent_path().string();
    const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        return ioError("cannot open checkpoint folder", dir);
    }
    const int rc = ::fsync(dfd);
    ::close(dfd);
    if (rc != 0) {
        return ioError("cannot fsync checkpoint folder", dir);
    }
    return {};
}

Result<void> makeDirs(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        return fail(ErrorCode::Io, "cannot create checkpoint folder " + dir + ": " + ec.message());
    }
    return {};
}

Result<std::string> readWhole(const std::string& path, const char* what) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        return fail(ErrorCode::NotFound, std::string(what) + " " + path + " does not exist");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return fail(ErrorCode::Io, std::string("cannot open ") + what + " " + path);
    }
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// ---- binary shard ------------------------------------------------------------------------

template <typename T> void put(std::string& out, T v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

void putString(std::string& out, const std::string& s) {
    put(out, std::uint32_t(s.size()));
    out += s;
}

/// Bounds-checked reader over a shard's bytes.
struct Reader {
    std::string_view data;
    std::size_t pos = 0;

    template <typename T> bool get(T& v) {
        if (data.size() - pos < sizeof v) {
            return false;
        }
        std::memcpy(&v, data.data() + pos, sizeof v);
        pos += sizeof v;
        return true;
    }
    bool getString(std::string& s) {
        std::uint32_t n = 0;
        if (!get(n) || data.size() - pos < n) {
            return false;
        }
        s.assign(data.data() + pos, n);
        pos += n;
        return true;
    }
};

Failure corrupt(const std::string& path, const std::string& why) {
    return fail(ErrorCode::InvalidArgument,
                "corrupt or partial checkpoint " + path + ": " + why +
                    " (delete this step folder to resume from an earlier checkpoint)");
}

} // namespace

const CheckpointSection* RankCheckpoint::find(const std::string& name) const {
    for (const auto& s : sections) {
        if (s.name == name) {
            return &s;
        }
    }
    return nullptr;
}

std::string checkpointStepDir(const std::string& dir, std::int64_t step) {
    return (fs::path(dir) / ("step-" + std::to_string(step))).string();
}

Result<void> writeRankCheckpoint(const std::string& dir, const RankCheckpoint& ckpt) {
    const std::string stepDir = checkpointStepDir(dir, ckpt.step);
    if (auto r = makeDirs(stepDir); !r) {
        return r;
    }
    std::size_t floats = 0;
    for (const auto& s : ckpt.sections) {
        floats += s.data.size();
    }
    std::string out;
    out.reserve(256 + ckpt.layout.size() + ckpt.rngState.size() + floats * sizeof(float));
    out.append(kMagic, sizeof kMagic);
    put(out, kVersion);
    put(out, std::uint32_t(ckpt.rank));
    put(out, std::int64_t(ckpt.step));
    put(out, std::int64_t(ckpt.position.epoch));
    put(out, std::int64_t(ckpt.position.batchInEpoch));
    put(out, std::int64_t(ckpt.position.nextSample));
    putString(out, ckpt.layout);
    putString(out, ckpt.rngState);
    put(out, std::uint32_t(ckpt.sections.size()));
    for (const auto& s : ckpt.sections) {
        putString(out, s.name);
        put(out, std::uint64_t(s.data.size()));
        out.append(reinterpret_cast<const char*>(s.data.data()), s.data.size() * sizeof(float));
    }
    const auto crc = std::uint32_t(
        crc32_z(0L, reinterpret_cast<const Bytef*>(out.data()), z_size_t(out.size())));
    put(out, crc);
    return writeAtomically(
        (fs::path(stepDir) / ("rank-" + std::to_string(ckpt.rank) + ".bin")).string(), out);
}

Result<RankCheckpoint> readRankCheckpoint(const std::string& stepDir, int rank,
                                          const std::string& expectedLayout) {
    const std::string path =
        (fs::path(stepDir) / ("rank-" + std::to_string(rank) + ".bin")).string();
    auto bytes = readWhole(path, "checkpoint shard");
    if (!bytes) {
        return relay(bytes);
    }
    const std::string_view all = *bytes;
    if (all.size() < sizeof kMagic + 4 || std::memcmp(all.data(), kMagic, sizeof kMagic) != 0) {
        return corrupt(path, "not a Tessera checkpoint shard (bad magic or too short)");
    }
    std::uint32_t stored = 0;
    std::memcpy(&stored, all.data() + all.size() - 4, 4);
    const auto crc = std::uint32_t(
        crc32_z(0L, reinterpret_cast<const Bytef*>(all.data()), z_size_t(all.size() - 4)));
    Reader in{all.substr(0, all.size() - 4), sizeof kMagic};
    std::uint32_t version = 0;
    if (!in.get(version) || version != kVersion) {
        return corrupt(path, "format version " + std::to_string(version) + ", expected " +
                                 std::to_string(kVersion));
    }
    if (crc != stored) {
        return corrupt(path, "checksum mismatch (truncated or modified file)");
    }
    RankCheckpoint c;
    std::uint32_t fileRank = 0;
    std::uint32_t sections = 0;
    bool ok = in.get(fileRank) && in.get(c.step) && in.get(c.position.epoch) &&
              in.get(c.position.batchInEpoch) && in.get(c.position.nextSample) &&
              in.getString(c.layout) && in.getString(c.rngState) && in.get(sections);
    for (std::uint32_t k = 0; ok && k < sections; ++k) {
        CheckpointSection s;
        std::uint64_t count = 0;
        ok = in.getString(s.name) && in.get(count) &&
             count <= (in.data.size() - in.pos) / sizeof(float);
        if (ok) {
            s.data.resize(std::size_t(count));
            if (count > 0) { // an empty vector's data() may be null, which memcpy must not get
                std::memcpy(s.data.data(), in.data.data() + in.pos, std::size_t(count) * 4);
            }
            in.pos += std::size_t(count) * 4;
            c.sections.push_back(std::move(s));
        }
    }
    if (!ok || in.pos != in.data.size()) {
        return corrupt(path, "section sizes do not match the file size");
    }
    c.rank = int(fileRank);
    if (c.rank != rank) {
        return corrupt(path, "holds rank " + std::to_string(c.rank) + ", expected " +
                                 std::to_string(rank));
    }
    if (!expectedLayout.empty()) {
        if (auto r = checkLayoutMatches(path, c.layout, expectedLayout); !r) {
            return relay(r);
        }
    }
    return c;
}

Result<void> writeCheckpointManifest(const std::string& dir, const CheckpointManifest& m) {
    const std::string stepDir = checkpointStepDir(dir, m.step);
    if (auto r = makeDirs(stepDir); !r) {
        return r;
    }
    v1::CheckpointManifest pm;
    pm.set_format(kFormat);
    pm.set_version(int(kVersion));
    pm.set_layout(m.layout);
    pm.set_world_size(m.worldSize);
    pm.set_step(m.step);
    pm.set_epoch(m.position.epoch);
    pm.set_batch_in_epoch(m.position.batchInEpoch);
    pm.set_next_sample(m.position.nextSample);
    std::string json;
    google::protobuf::util::JsonPrintOptions opts;
    opts.add_whitespace = true;
    opts.always_print_primitive_fields = true;
    if (auto st = google::protobuf::util::MessageToJsonString(pm, &json, opts); !st.ok()) {
        return fail(ErrorCode::Internal,
                    "cannot encode checkpoint manifest: " + std::string(st.message()));
    }
    return writeAtomically((fs::path(stepDir) / kManifest).string(), json);
}

Result<CheckpointManifest> readCheckpointManifest(const std::string& stepDir) {
    const std::string path = (fs::path(stepDir) / kManifest).string();
    auto text = readWhole(path, "checkpoint manifest");
    if (!text) {
        return relay(text);
    }
    v1::CheckpointManifest pm;
    google::protobuf::util::JsonParseOptions opts;
    opts.ignore_unknown_fields = false;
    if (auto st = google::protobuf::util::JsonStringToMessage(*text, &pm, opts); !st.ok()) {
        return corrupt(path, "not a valid manifest: " + std::string(st.message()));
    }
    if (pm.format() != kFormat || pm.layout().empty()) {
        return corrupt(path, "missing \"format\" or \"layout\"");
    }
    if (pm.version() != int(kVersion)) {
        return corrupt(path, "manifest version " + std::to_string(pm.version()) + ", expected " +
                                 std::to_string(kVersion));
    }
    CheckpointManifest m;
    m.layout = pm.layout();
    m.worldSize = pm.world_size();
    m.step = pm.step();
    m.position = {pm.epoch(), pm.batch_in_epoch(), pm.next_sample()};
    return m;
}

Result<std::optional<std::string>> latestCheckpoint(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        return std::optional<std::string>();
    }
    std::optional<std::string> best;
    std::int64_t bestStep = -1;
    fs::directory_iterator it(dir, ec);
    if (ec) {
        return fail(ErrorCode::Io, "cannot list checkpoint folder " + dir + ": " + ec.message());
    }
    for (const auto& entry : it) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("step-", 0) != 0 || name.size() == 5 ||
            name.find_first_not_of("0123456789", 5) != std::string::npos || !entry.is_directory()) {
            continue;
        }
        std::int64_t step = 0;
        try {
            step = std::stoll(name.substr(5));
        } catch (...) {
            continue;
        }
        if (step <= bestStep) {
            continue;
        }
        auto m = readCheckpointManifest(entry.path().string());
        if (m && m->step == step) { // no or bad manifest: an interrupted write, skipped
            bestStep = step;
            best = entry.path().string();
        }
    }
    return best;
}

Result<std::string> resolveCheckpoint(const std::string& path) {
    std::error_code ec;
    if (fs::exists(fs::path(path) / kManifest, ec)) {
        if (auto m = readCheckpointManifest(path); !m) {
            return relay(m);
        }
        return path;
    }
    auto latest = latestCheckpoint(path);
    if (!latest) {
        return relay(latest);
    }
    if (!*latest) {
        return fail(ErrorCode::NotFound,
                    "no complete checkpoint in " + path +
                        " (expected a step-N folder with manifest.json, or a folder of them)");
    }
    return **latest;
}

Result<void> checkLayoutMatches(const std::string& what, const std::string& found,
                                const std::string& expected) {
    if (found == expected) {
        return {};
    }
    return fail(ErrorCode::InvalidArgument, "checkpoint " + what + " was written for layout '" +
                                                found + "', this job has '" + expected +
                                                "': resume with the same model and layout, or "
                                                "start without checkpoint.resumeFrom / --resume");
}

} // namespace tessera::train
