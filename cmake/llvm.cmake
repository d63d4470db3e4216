# Clang's libTooling and LLVM's support library, as the two targets the stages link:
#   kverify::llvm   LLVM's ADT and Support (JSON, raw_ostream, command lines)
#   kverify::clang  libTooling, with kverify::llvm
# Static by default. The shared libLLVM and libclang-cpp cost every run of kverify about
# 20 ms of CPU before main (560,000 relocations, and the constructors of every option of
# every LLVM pass), a quarter of a typical file's time; the archives bring in only what
# kverify uses (it starts in 5 ms). KVERIFY_STATIC_LLVM=OFF links the shared libraries
# (a smaller binary, faster links).
find_package(LLVM REQUIRED CONFIG PATHS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
find_package(Clang REQUIRED CONFIG PATHS /usr/lib/llvm-19/lib/cmake/clang NO_DEFAULT_PATH)
option(KVERIFY_STATIC_LLVM "Link Clang and LLVM from their static archives (kverify starts 20 ms sooner)" ON)

add_library(kverify_llvm INTERFACE)
add_library(kverify::llvm ALIAS kverify_llvm)
target_include_directories(kverify_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
separate_arguments(kverify_llvm_definitions UNIX_COMMAND "${LLVM_DEFINITIONS}")
target_compile_definitions(kverify_llvm INTERFACE ${kverify_llvm_definitions})

add_library(kverify_clang INTERFACE)
add_library(kverify::clang ALIAS kverify_clang)
target_include_directories(kverify_clang SYSTEM INTERFACE ${CLANG_INCLUDE_DIRS})

if(KVERIFY_STATIC_LLVM)
  llvm_map_components_to_libnames(llvm_support support)
  target_link_libraries(kverify_llvm INTERFACE ${llvm_support})
  # Clang's archives by file, not as Clang's targets: Debian's targets link libLLVM.so.
  # They depend on each other in cycles (Sema and Analysis, Frontend and Driver), hence
  # one group the linker rescans.
  set(clang_archives "")
  foreach(lib clangTooling clangToolingCore clangToolingInclusions clangFrontend clangDriver
              clangParse clangSerialization clangSema clangAPINotes clangEdit clangAnalysis
              clangASTMatchers clangAST clangSupport clangLex clangBasic clangRewrite clangFormat)
    list(APPEND clang_archives $<TARGET_FILE:${lib}>)
  endforeach()
  llvm_map_components_to_libnames(llvm_for_clang
    option frontendopenmp frontendhlsl windowsdriver mc mcparser profiledata core targetparser
    binaryformat support)
  target_link_libraries(kverify_clang INTERFACE "$<LINK_GROUP:RESCAN,${clang_archives}>"
                        ${llvm_for_clang} kverify_llvm)
else()
  target_link_libraries(kverify_llvm INTERFACE LLVM)
  target_link_libraries(kverify_clang INTERFACE clang-cpp kverify_llvm)
endif()
