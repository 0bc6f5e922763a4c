// Fuzz target: calibration files (calibrationFromJson, what the designer loads at start) and the
// probe lines tessera-ctl calibrate reads from tessera-train --probe (parseProbeLine), fitted into
// a calibration as the command does (8 ranks on 4 nodes of "cpu").
#include "backend/planner/calibration.h"
#include "tests/fuzz/fuzz_input.h"

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text = fuzz::inputText(data, size);
    if (auto nodes = planner::calibrationFromJson(text)) {
        for (const planner::NodeCalibration& n : *nodes) {
            (void)planner::describeCalibration(n, "cpu");
        }
        (void)planner::calibrationToJson(*nodes);
    }
    std::vector<planner::ProbeRecord> records;
    for (std::string_view line : fuzz::inputLines(text)) {
        if (auto r = planner::parseProbeLine(std::string(line))) {
            records.push_back(std::move(*r));
        }
    }
    if (!records.empty()) {
        const std::vector<std::string> rankNodes = {"n0", "n0", "n1", "n1", "n2", "n2", "n3", "n3"};
        if (auto fitted = planner::fitCalibration(records, rankNodes, "cpu")) {
            (void)planner::calibrationToJson(*fitted);
        }
    }
    return 0;
}
