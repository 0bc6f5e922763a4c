# Main build: builds the fuzz targets in a clang sub-build (<build>/fuzz) and registers one ctest
# test per target, label "fuzz": its regression inputs once, then TESSERA_FUZZ_SECONDS of fuzzing
# from its seed corpus. Without clang every fuzz test skips, saying what to install.
include(${CMAKE_CURRENT_LIST_DIR}/targets.cmake)
set(TESSERA_FUZZ_SECONDS 15 CACHE STRING "Seconds of fuzzing per target in the default test run")
option(TESSERA_BUILD_FUZZERS "Build the libFuzzer targets (needs clang)" ON)
# clang 19: clang 14 (Debian's default clang) cannot compile libstdc++ 12's std::expected, which
# the project uses everywhere (it lacks C++20's conditionally trivial special members, P0848).
find_program(TESSERA_CLANG_CXX NAMES clang++-19)
find_program(TESSERA_CLANG_C NAMES clang-19)
find_file(TESSERA_LIBFUZZER libclang_rt.fuzzer-x86_64.a PATHS /usr/lib/llvm-19/lib/clang/19/lib/linux
          NO_DEFAULT_PATH)
set(_fuzz_dir ${PROJECT_BINARY_DIR}/fuzz)
set(_fuzz_missing "")
if(NOT TESSERA_BUILD_FUZZERS)
    set(_fuzz_missing "TESSERA_BUILD_FUZZERS is OFF")
elseif(NOT TESSERA_CLANG_CXX OR NOT TESSERA_CLANG_C OR NOT TESSERA_LIBFUZZER)
    set(_fuzz_missing "clang with libFuzzer not found: install the Debian packages 'clang-19 libclang-rt-19-dev'")
endif()

if(_fuzz_missing STREQUAL "")
    include(ExternalProject)
    # The same sources configured again with clang: only tessera_fuzzers and what it links are
    # built. BUILD_ALWAYS so an edit of a parser rebuilds its fuzzer with the main build.
    ExternalProject_Add(tessera_fuzz_build
        SOURCE_DIR ${PROJECT_SOURCE_DIR}
        BINARY_DIR ${_fuzz_dir}
        CMAKE_GENERATOR Ninja
        CMAKE_ARGS -DCMAKE_C_COMPILER=${TESSERA_CLANG_C} -DCMAKE_CXX_COMPILER=${TESSERA_CLANG_CXX}
                   -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTESSERA_FUZZ=ON -DTESSERA_BUILD_APP=OFF
                   -DTESSERA_BUILD_TESTS=OFF -DTESSERA_ENABLE_GPU=OFF
                   -DTESSERA_CPU_ARCH=${TESSERA_CPU_ARCH} -DTESSERA_CCACHE=${TESSERA_CCACHE}
        BUILD_COMMAND ${CMAKE_COMMAND} --build ${_fuzz_dir} --target tessera_fuzzers
        INSTALL_COMMAND ""
        BUILD_ALWAYS ON
        USES_TERMINAL_BUILD ON)
endif()

foreach(_t IN LISTS TESSERA_FUZZ_TARGETS)
    set(_name fuzz_${_t})
    if(_fuzz_missing STREQUAL "")
        add_test(NAME ${_name}
                 COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run-fuzzer.sh ${_fuzz_dir}/bin/${_name}
                         ${CMAKE_CURRENT_LIST_DIR}/corpus/${_t} ${CMAKE_CURRENT_LIST_DIR}/regressions/${_t}
                         ${_fuzz_dir}/kept/${_t} ${TESSERA_FUZZ_SECONDS})
    else()
        add_test(NAME ${_name} COMMAND bash -c "echo 'SKIP ${_name}: ${_fuzz_missing}'; exit 77")
    endif()
    math(EXPR _timeout "(${TESSERA_FUZZ_SECONDS} + 60) * ${TESSERA_TEST_TIMEOUT_SCALE}")
    set_tests_properties(${_name} PROPERTIES LABELS "fuzz" TIMEOUT ${_timeout} SKIP_RETURN_CODE 77)
endforeach()
