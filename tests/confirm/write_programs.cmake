# kverify --confirm --confirm-dir=DIR FILES...: the replay programs, written afresh. The
# fixtures are racy on purpose: exit status 1 (findings) is what success looks like.
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${KVERIFY} --confirm --confirm-dir=${DIR} --no-cache ${FILES}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 1)
  message(FATAL_ERROR "kverify exited with ${status}, not 1 (findings):\n${out}\n${err}")
endif()
file(GLOB programs ${DIR}/*/replay.cu)
list(LENGTH FILES expected)
list(LENGTH programs written)
if(written LESS expected)
  message(FATAL_ERROR "${written} replay programs for ${expected} files:\n${out}\n${err}")
endif()
message(STATUS "${written} replay programs in ${DIR}")
