# CTest functions for projects that use kverify; the same file serves the installed package
# (find_package(kverify)) and kverify's own build, so both register their tests alike.
#
#   kverify_add_check(NAME name SOURCES file|dir... [LAUNCH option...] [ARGS clang-arg...]
#                     [COMPILE_COMMANDS] [OPTIONS kverify-option...] [BASELINE file]
#                     [WORKING_DIRECTORY dir] [JOBS n] [LABELS label...])
#     A CTest test NAME (label kverify) running kverify over SOURCES: it fails on a finding
#     (a verdict in --fail-on that BASELINE does not list) and on errors, and writes its JSON
#     report to ${KVERIFY_REPORT_DIR}/NAME.json (default ${CMAKE_BINARY_DIR}/kverify-reports).
#     LAUNCH: --block-dim=, --grid-dim=, --assume=. ARGS: clang's (-I, -D). COMPILE_COMMANDS:
#     each file's include paths and macros as its target compiles it (-p, which needs
#     CMAKE_EXPORT_COMPILE_COMMANDS). The test runs in WORKING_DIRECTORY (default: the current
#     source directory), so relative paths in SOURCES, ARGS and BASELINE are relative to it,
#     and reports name files as given.
#
#   kverify_add_property_suite(NAME name SOURCES file... [LIBS lib...] [LABELS label...])
#     A GoogleTest + RapidCheck executable NAME linked to kverify::properties (and gtest_main),
#     its tests discovered into CTest with labels property and gpu. Tests written with
#     KV_GPU_PROPERTY or KV_REQUIRE_GPU (kverify/properties/gpu_test.hpp) skip, and CTest
#     shows them skipped with the reason, where there is no GPU.
include_guard(GLOBAL)
include(GoogleTest)

function(kverify_add_check)
  cmake_parse_arguments(PARSE_ARGV 0 C "COMPILE_COMMANDS" "NAME;BASELINE;WORKING_DIRECTORY;JOBS"
                        "SOURCES;LAUNCH;ARGS;OPTIONS;LABELS")
  if(NOT C_NAME)
    message(FATAL_ERROR "kverify_add_check: NAME is required")
  endif()
  set(where "kverify_add_check(NAME ${C_NAME})")
  if(C_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments: ${C_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT C_SOURCES)
    message(FATAL_ERROR "${where}: SOURCES is required (files or directories to verify)")
  endif()
  if(NOT TARGET kverify::kverify)
    message(FATAL_ERROR "${where}: the kverify executable is not available (kverify was "
                        "built with KVERIFY_BUILD_VERIFIER=OFF)")
  endif()
  if(NOT C_WORKING_DIRECTORY)
    set(C_WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  if(NOT C_JOBS)
    set(C_JOBS 1)
  elseif(NOT C_JOBS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "${where}: JOBS must be a positive number, not '${C_JOBS}'")
  endif()
  foreach(option IN LISTS C_LAUNCH)
    if(NOT option MATCHES "^--(block-dim|grid-dim|blockDim|gridDim|assume)=")
      message(FATAL_ERROR "${where}: LAUNCH takes --block-dim=, --grid-dim= and --assume=, "
                          "not '${option}' (other kverify options go under OPTIONS)")
    endif()
  endforeach()
  if(C_COMPILE_COMMANDS AND NOT CMAKE_EXPORT_COMPILE_COMMANDS)
    message(FATAL_ERROR "${where}: COMPILE_COMMANDS needs set(CMAKE_EXPORT_COMPILE_COMMANDS ON) "
                        "before the targets are defined")
  endif()
  # Missing inputs are configuration errors here rather than a failing test later.
  foreach(path IN LISTS C_SOURCES C_BASELINE)
    cmake_path(ABSOLUTE_PATH path BASE_DIRECTORY ${C_WORKING_DIRECTORY} OUTPUT_VARIABLE full)
    if(NOT EXISTS ${full})
      message(FATAL_ERROR "${where}: '${path}' not found (looked at ${full}; relative paths "
                          "are relative to WORKING_DIRECTORY ${C_WORKING_DIRECTORY})")
    endif()
  endforeach()

  if(NOT KVERIFY_REPORT_DIR)
    set(KVERIFY_REPORT_DIR ${CMAKE_BINARY_DIR}/kverify-reports)
  endif()
  file(MAKE_DIRECTORY ${KVERIFY_REPORT_DIR})
  set(command $<TARGET_FILE:kverify::kverify> -j${C_JOBS}
      # The result cache lives in the build tree: reruns over unchanged sources are
      # near-instant, and nothing is written to the user's home.
      --cache-dir=${CMAKE_BINARY_DIR}/kverify-cache
      --json=${KVERIFY_REPORT_DIR}/${C_NAME}.json)
  if(C_BASELINE)
    list(APPEND command --baseline=${C_BASELINE})
  endif()
  if(C_COMPILE_COMMANDS)
    list(APPEND command -p ${CMAKE_BINARY_DIR})
  endif()
  list(APPEND command ${C_LAUNCH} ${C_OPTIONS} ${C_SOURCES})
  if(C_ARGS)
    list(APPEND command -- ${C_ARGS})
  endif()
  add_test(NAME ${C_NAME} COMMAND ${command} WORKING_DIRECTORY ${C_WORKING_DIRECTORY})
  set(labels kverify ${C_LABELS})
  set_tests_properties(${C_NAME} PROPERTIES LABELS "${labels}" PROCESSORS ${C_JOBS})
endfunction()

function(kverify_add_property_suite)
  cmake_parse_arguments(PARSE_ARGV 0 S "" "NAME" "SOURCES;LIBS;LABELS")
  if(NOT S_NAME)
    message(FATAL_ERROR "kverify_add_property_suite: NAME is required")
  endif()
  set(where "kverify_add_property_suite(NAME ${S_NAME})")
  if(S_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments: ${S_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT S_SOURCES)
    message(FATAL_ERROR "${where}: SOURCES is required")
  endif()
  if(NOT TARGET kverify::properties)
    message(FATAL_ERROR "${where}: kverify::properties is not available (kverify was built "
                        "with KVERIFY_BUILD_GPU=OFF, or installed with --component verifier)")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  foreach(source IN LISTS S_SOURCES)
    if(source MATCHES "\\.cu$" AND NOT "CUDA" IN_LIST languages)
      message(FATAL_ERROR "${where}: '${source}' is CUDA, but CUDA is not enabled: "
                          "project(... LANGUAGES CXX CUDA) or enable_language(CUDA)")
    endif()
  endforeach()

  add_executable(${S_NAME} ${S_SOURCES})
  target_link_libraries(${S_NAME} PRIVATE kverify::properties ${S_LIBS} GTest::gtest_main)
  gtest_discover_tests(${S_NAME} DISCOVERY_TIMEOUT 60 TEST_LIST ${S_NAME}_TESTS)
  # gtest_discover_tests' PROPERTIES would split the list of labels, so a script that CTest
  # runs after including the discovered tests sets them.
  set(labels property gpu ${S_LABELS})
  set(script ${CMAKE_CURRENT_BINARY_DIR}/${S_NAME}_labels.cmake)
  file(WRITE ${script}
    "if(${S_NAME}_TESTS)\n"
    "  set_tests_properties(\${${S_NAME}_TESTS} PROPERTIES LABELS \"${labels}\")\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${script})
endfunction()
