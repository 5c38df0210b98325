# cmake/face.cmake - weft_add_face_library: the library of a face (src/<face>/), built,
# versioned and installed the same way for every face.
#
#   weft_add_face_library(<target> OUTPUT_NAME <name> ALIAS <alias> SOURCES <file>...
#                         [PRELOAD] [EXPORT] [COMPONENTS <runtime> <dev>]
#                         [LINK <item>...] [PRIVATE_LINK <item>...] [DEFINITIONS <def>...]
#                         [HEADERS <file>...] [PKGCONFIG <file>.pc.in])
#
# Builds lib<name>.so.1.0.0 (SONAME lib<name>.so.1, target <target>, alias weft::<alias>)
# and lib<name>.a (target <target>_static), both from one object library <target>_obj;
# each links libweft (the shared library weft, the archive weft_static) and LINK publicly,
# PRIVATE_LINK privately.  PRELOAD: a face that works by defining functions ahead of the
# library it stands in for (LD_PRELOAD, or linked before it): the shared library only,
# compiled from SOURCES directly.
#
# Compiled as core is: the warnings, hidden visibility (a face exports only what it marks
# WEFT_API), the build toggles WEFT_TSAN, WEFT_ASAN and WEFT_ASSERTS, and DEFINITIONS.
# The include directories are src/ (private) and include/ (public, also installed).
#
# Installed: the libraries into the library directory (the shared library in component
# <runtime>, its link and the archive in <dev>; default runtime and dev, the two Debian
# packages of cmake/package.cmake), HEADERS into the include directory (<dev>), and the
# pkg-config file PKGCONFIG configured to <file>.pc (<dev>).  The .pc finds its prefix from
# its own place: PKGCONFIG's prefix is ${pcfiledir}/@WEFT_PC_TO_PREFIX@.  EXPORT: the
# targets join the CMake package (find_package(weft), weft::<target>, cmake/install.cmake).
# The RUNPATH ($ORIGIN) is cmake/install.cmake's, for every face at once.
include(GNUInstallDirs)

function(weft_add_face_library t)
  cmake_parse_arguments(PARSE_ARGV 1 F "PRELOAD;EXPORT" "OUTPUT_NAME;ALIAS;PKGCONFIG"
                        "SOURCES;COMPONENTS;LINK;PRIVATE_LINK;DEFINITIONS;HEADERS")
  if(F_UNPARSED_ARGUMENTS OR NOT F_OUTPUT_NAME OR NOT F_ALIAS OR NOT F_SOURCES)
    message(FATAL_ERROR "weft_add_face_library(${t}): needs OUTPUT_NAME, ALIAS and SOURCES "
                        "(unknown: ${F_UNPARSED_ARGUMENTS})")
  endif()
  set(runtime runtime)
  set(dev dev)
  if(F_COMPONENTS)
    list(GET F_COMPONENTS 0 runtime)
    list(GET F_COMPONENTS 1 dev)
  endif()

  if(F_PRELOAD)
    set(compiled ${t})
    set(libs ${t})
    add_library(${t} SHARED ${F_SOURCES})
  else()
    set(compiled ${t}_obj)
    set(libs ${t} ${t}_static)
    add_library(${t}_obj OBJECT ${F_SOURCES})
    target_include_directories(${t}_obj PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>)
    if(F_LINK)
      target_link_libraries(${t}_obj PUBLIC ${F_LINK}) # their compile flags (MPI's headers)
    endif()
    add_library(${t} SHARED $<TARGET_OBJECTS:${t}_obj>)
    add_library(${t}_static STATIC $<TARGET_OBJECTS:${t}_obj>)
  endif()
  target_include_directories(${compiled} PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(${compiled} PRIVATE -Wall -Wextra -Wno-unused-parameter -fvisibility=hidden)
  target_compile_definitions(${compiled} PRIVATE
    ${F_DEFINITIONS}
    WEFT_TSAN=$<BOOL:${WEFT_SANITIZE_THREAD}>
    WEFT_ASAN=$<BOOL:${WEFT_SANITIZE_ADDRESS}>
    WEFT_ASSERTS=$<OR:$<BOOL:${WEFT_ASSERTS}>,$<CONFIG:Debug>,$<BOOL:${WEFT_SANITIZE_ADDRESS}>,$<BOOL:${WEFT_SANITIZE_THREAD}>>)

  foreach(lib ${libs})
    if(lib STREQUAL t)
      target_link_libraries(${lib} PUBLIC weft ${F_LINK})
    else()
      target_link_libraries(${lib} PUBLIC weft_static ${F_LINK})
    endif()
    if(F_PRIVATE_LINK)
      target_link_libraries(${lib} PRIVATE ${F_PRIVATE_LINK})
    endif()
    target_include_directories(${lib} PUBLIC
      $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:include>)
    set_target_properties(${lib} PROPERTIES OUTPUT_NAME ${F_OUTPUT_NAME})
  endforeach()
  set_target_properties(${t} PROPERTIES VERSION 1.0.0 SOVERSION 1)
  add_library(weft::${F_ALIAS} ALIAS ${t})

  set(export "")
  if(F_EXPORT)
    set(export EXPORT weftTargets)
  endif()
  set(archive "")
  if(NOT F_PRELOAD)
    set(archive ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT ${dev})
  endif()
  install(TARGETS ${libs} ${export}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT ${runtime} NAMELINK_COMPONENT ${dev}
    ${archive})
  if(F_HEADERS)
    install(FILES ${F_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT ${dev})
  endif()
  if(F_PKGCONFIG)
    get_filename_component(pc ${F_PKGCONFIG} NAME)
    string(REGEX REPLACE "\\.in$" "" pc ${pc})
    file(RELATIVE_PATH to_prefix "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
    string(REGEX REPLACE "/$" "" WEFT_PC_TO_PREFIX "${to_prefix}")
    configure_file(${F_PKGCONFIG} ${PROJECT_BINARY_DIR}/${pc} @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/${pc} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
            COMPONENT ${dev})
  endif()
endfunction()
