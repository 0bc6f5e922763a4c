# The libFuzzer targets (tests/fuzz/fuzz_<name>.cpp, seeds in tests/fuzz/corpus/<name>/), shared
# by the clang sub-build that builds them and the main build that runs them.
set(TESSERA_FUZZ_TARGETS job_spec record_line proc_files hf_config calibration plan_file ssh_hosts
                         slurm_clusters lambda_api tfevents log_lines)
