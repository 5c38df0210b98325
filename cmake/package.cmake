# Debian packages through CPack: `cpack -G DEB` in a build tree makes
#   libweft      the shared library (install component "runtime", cmake/install.cmake);
#   libweft-dev  headers, static library, libweft.so link, weft.pc, argobots.pc and the
#                CMake package (component "dev"); depends on the same version of libweft;
#   weft-kvserver  the memcached-protocol server /usr/bin/weft-kvserver (component
#                "kvserver", examples/kvserver); depends on the same version of libweft.
# Configure with -DCMAKE_INSTALL_PREFIX=/usr so that GNUInstallDirs picks Debian's
# multiarch library directory (/usr/lib/<triplet>); with another prefix the files go to
# /usr/lib, which works as well.  scripts/test_packages.sh builds, installs, uses and
# purges the packages.
set(CPACK_PACKAGE_NAME weft)
set(CPACK_PACKAGE_VENDOR "weft developers")
set(WEFT_PACKAGE_MAINTAINER "weft developers <weft@localhost>" CACHE STRING
  "Maintainer field of the Debian packages")
set(CPACK_PACKAGE_CONTACT "${WEFT_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# No CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPackDeb would put it before each component's own
# summary line (the first line of CPACK_DEBIAN_<COMPONENT>_DESCRIPTION).
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL runtime dev)
if(TARGET weft_kvserver)
  list(APPEND CPACK_COMPONENTS_ALL kvserver)
endif()

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)          # name_version-release_arch.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(weft_deb_version "${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}")

# libweft: Depends computed by dpkg-shlibdeps (libc6), and a shlibs control file so that
# packages linking libweft.so.1 get "libweft (>= <version>)" from their own shlibdeps;
# CPack adds the ldconfig trigger for the shared library.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libweft)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# the frames of ABT_info_* stack dumps (libunwind.so.8 and libdw.so.1 for file:line,
# loaded when first needed); gdb
# reads the script the package installs for it (share/gdb/auto-load, cmake/gdb.cmake)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "libunwind8, libdw1")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SUGGESTS gdb)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
  "lightweight threading and tasking runtime (shared library)
weft provides execution streams, user-level threads, tasklets, pools and
schedulers with the Argobots 1.2 API: programs built for Argobots run
unchanged against libweft.so.")

# libweft-dev: exact version of the runtime, like Debian's -dev packages.
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libweft-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libweft (= ${weft_deb_version})")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "pkg-config, cmake")
set(CPACK_DEBIAN_DEV_DESCRIPTION
  "lightweight threading and tasking runtime (development files)
Headers (abt.h, weft.h), the static library, pkg-config files (weft.pc and
argobots.pc, so that pkg-config argobots resolves to weft) and the CMake
package (find_package(weft), target weft::weft).")

# weft-kvserver: the program needs libweft.so.1 and libweft-io.so.1 (both in libweft,
# whose own Depends bring libc6).
set(CPACK_DEBIAN_KVSERVER_PACKAGE_NAME weft-kvserver)
set(CPACK_DEBIAN_KVSERVER_PACKAGE_SECTION net)
set(CPACK_DEBIAN_KVSERVER_PACKAGE_DEPENDS "libweft (= ${weft_deb_version})")
set(CPACK_DEBIAN_KVSERVER_DESCRIPTION
  "memcached-protocol cache server on weft user-level threads
weft-kvserver speaks memcached's ASCII protocol (get, set, cas, incr,
touch, gat, flush_all, stats ...) with a ULT per connection on weft-io,
a memory bound with LRU eviction, and an optional append-only log that
keeps every acknowledged change across a crash (-L FILE).")

include(CPack)
