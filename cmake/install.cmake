# Install: libweft's libraries, its public headers, pkg-config files (weft.pc, and
# argobots.pc so that `pkg-config argobots` users link weft unchanged), and a CMake package
# (weft::weft, and the faces that weft_add_face_library exports: cmake/face.cmake installs
# each face's library, headers and .pc).
# Two install components, which are also the two Debian packages (cmake/package.cmake):
#   runtime - the shared libraries libweft.so.1 and the faces' (package libweft);
#   dev     - headers, static libraries, the .so links, .pc files, CMake package,
#             bin/weft-trace-summary (package libweft-dev).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# RUNPATH $ORIGIN on every shared library of the build but libweft itself (the faces, added
# before this file is included): each needs libweft.so.1 and finds it in its own directory,
# so a program that loads the face alone from a private prefix finds libweft too
# (LD_PRELOAD=$prefix/lib/libweft-pthread.so, or a program linked with `pkg-config relic`
# whose -lweft --as-needed drops): a program's own RUNPATH does not apply to its libraries'
# dependencies.  No absolute path: under /usr (the Debian packages) $ORIGIN is the
# directory the loader searches anyway.  A library that sets its own (libweft-omp, whose
# lib/weft-omp/libgomp.so.1 stand-in looks one level up) keeps it.
# scripts/check_install.sh checks every installed library (scripts/test.sh, release).
function(weft_origin_runpath dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    get_target_property(rp ${t} INSTALL_RPATH)
    if(type STREQUAL "SHARED_LIBRARY" AND NOT t STREQUAL "weft" AND NOT rp)
      set_target_properties(${t} PROPERTIES INSTALL_RPATH "\$ORIGIN")
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(d ${subdirs})
    weft_origin_runpath(${d})
  endforeach()
endfunction()
weft_origin_runpath(${PROJECT_SOURCE_DIR})

install(TARGETS weft weft_static EXPORT weftTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES include/abt.h include/weft.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev)
# the reader of WEFT_TRACE files (Python 3, standard library; README "Debugging")
install(PROGRAMS tools/weft-trace-summary DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT dev)

# Relocatable .pc files: the prefix is found from the .pc file's own place, so
# `cmake --install --prefix DIR` works without reconfiguring.
file(RELATIVE_PATH WEFT_PC_TO_PREFIX "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
string(REGEX REPLACE "/$" "" WEFT_PC_TO_PREFIX "${WEFT_PC_TO_PREFIX}")
foreach(pc weft argobots)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/${pc}.pc.in
                 ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
endforeach()

install(EXPORT weftTargets NAMESPACE weft:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/weft
        COMPONENT dev)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/weftConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/weftConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/weft)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/weftConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/weftConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/weftConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/weft COMPONENT dev)
