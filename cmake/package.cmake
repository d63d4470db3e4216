# The installed CMake package (cmake --install BUILD --prefix P): P/lib/cmake/kverify holds
# kverifyConfig.cmake, its version file, kverifyFunctions.cmake and the imported targets,
# kverify::kverify (component verifier) and kverify::runtime, kernels, properties.
# `cmake --install BUILD --component verifier` installs the verifier alone, with the config.
include(CMakePackageConfigHelpers)
set(KVERIFY_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kverify)

configure_package_config_file(cmake/kverifyConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kverifyConfig.cmake
  INSTALL_DESTINATION ${KVERIFY_CMAKE_INSTALL_DIR})
# 0.x: a new minor version may change the functions or the targets.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kverifyConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
    ${PROJECT_BINARY_DIR}/kverifyConfig.cmake
    ${PROJECT_BINARY_DIR}/kverifyConfigVersion.cmake
    cmake/kverifyFunctions.cmake
  DESTINATION ${KVERIFY_CMAKE_INSTALL_DIR} COMPONENT verifier)

if(KVERIFY_BUILD_VERIFIER)
  install(EXPORT kverifyVerifierTargets NAMESPACE kverify::
          DESTINATION ${KVERIFY_CMAKE_INSTALL_DIR} COMPONENT verifier)
endif()
install(EXPORT kverifyLibraryTargets NAMESPACE kverify::
        DESTINATION ${KVERIFY_CMAKE_INSTALL_DIR})
