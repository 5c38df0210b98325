# gdb support (tools/gdb/weft.py, docs/debugging.md): the script goes where gdb's auto-load
# looks for the library's companion script, <datadir>/gdb/auto-load/<real path of the
# library>-gdb.py, that is <prefix>/share/gdb/auto-load<prefix>/<libdir>/libweft.so.<version>-gdb.py.
# The prefix in the middle is the one at install time (escaped below: cpack installs into
# /usr, `cmake --install --prefix DIR` into DIR).  Component runtime: the libweft package.
install(FILES ${PROJECT_SOURCE_DIR}/tools/gdb/weft.py
  DESTINATION "${CMAKE_INSTALL_DATADIR}/gdb/auto-load\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}"
  RENAME libweft.so.${PROJECT_VERSION}-gdb.py COMPONENT runtime)

# The same layout in the build tree, for the tests (tests/gdb_*.c): gdb-auto-load/<path of
# the built libweft.so.<version>>-gdb.py, refreshed when the script changes.
set(WEFT_GDB_AUTOLOAD_DIR ${PROJECT_BINARY_DIR}/gdb-auto-load)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/gdb-auto-load.stamp
  COMMAND ${CMAKE_COMMAND} -E make_directory ${WEFT_GDB_AUTOLOAD_DIR}$<TARGET_FILE_DIR:weft>
  COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/tools/gdb/weft.py
          ${WEFT_GDB_AUTOLOAD_DIR}$<TARGET_FILE:weft>-gdb.py
  COMMAND ${CMAKE_COMMAND} -E touch ${PROJECT_BINARY_DIR}/gdb-auto-load.stamp
  DEPENDS ${PROJECT_SOURCE_DIR}/tools/gdb/weft.py
  COMMENT "gdb auto-load copy of tools/gdb/weft.py")
add_custom_target(weft_gdb_autoload ALL DEPENDS ${PROJECT_BINARY_DIR}/gdb-auto-load.stamp)
