// Fuzz target: the job-spec loader (JSON syntax check, protobuf's JSON mapping) and every check
// of validateJobSpec, the layout check included — what tessera-ctl, the backend and the worker
// run on a spec file before anything launches.
#include "tests/fuzz/fuzz_input.h"
#include "worker/common/spec_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text = tessera::fuzz::inputText(data, size);
    tessera::Result<tessera::v1::JobSpec> spec = tessera::parseJobSpec(text, "fuzz.json");
    if (!spec) {
        return 0;
    }
    (void)tessera::worldSize(spec->layout());
    if (tessera::validateJobSpec(*spec)) {
        (void)tessera::jobSpecToJson(*spec);
    }
    return 0;
}
