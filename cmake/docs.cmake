# The API reference: `cmake --build <dir> --target docs` runs Doxygen on include/abt.h,
# include/weft.h, the guides and face pages in docs/reference/, docs/*.md and the design
# notes in docs/design/ into <dir>/docs/html (start page: index.html).  Every warning fails
# the target (WARN_AS_ERROR), so does a public function without its fixed sections
# (scripts/check_api_docs.py).  WEFT_DOCS defaults to on when
# doxygen is found; asking for it without doxygen is an error.
find_package(Doxygen QUIET)
option(WEFT_DOCS "Add the docs target (API reference with Doxygen)" ${DOXYGEN_FOUND})
if(WEFT_DOCS)
  if(NOT DOXYGEN_FOUND)
    message(FATAL_ERROR "WEFT_DOCS needs doxygen (Debian: apt-get install doxygen)")
  endif()
  find_package(Python3 COMPONENTS Interpreter QUIET)
  set(WEFT_DOCS_OUT ${CMAKE_CURRENT_BINARY_DIR}/docs)
  file(GLOB weft_docs_pages CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/docs/reference/*.md
                                              ${CMAKE_CURRENT_SOURCE_DIR}/docs/*.md
                                              ${CMAKE_CURRENT_SOURCE_DIR}/docs/design/*.md)
  set(weft_docs_headers ${CMAKE_CURRENT_SOURCE_DIR}/include/abt.h
                        ${CMAKE_CURRENT_SOURCE_DIR}/include/weft.h)
  list(JOIN weft_docs_headers " " weft_h)
  list(JOIN weft_docs_pages " " weft_md)
  set(WEFT_DOCS_INPUT "${weft_h} ${weft_md}")
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/docs/reference/Doxyfile.in
                 ${WEFT_DOCS_OUT}/Doxyfile @ONLY)
  if(Python3_Interpreter_FOUND)
    set(weft_docs_check COMMAND ${Python3_EXECUTABLE}
        ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_api_docs.py ${weft_docs_headers})
  else()
    message(STATUS "weft: no python3, the docs target skips scripts/check_api_docs.py")
    set(weft_docs_check)
  endif()
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${WEFT_DOCS_OUT}/html
    ${weft_docs_check}
    COMMAND ${DOXYGEN_EXECUTABLE} ${WEFT_DOCS_OUT}/Doxyfile
    DEPENDS ${weft_docs_headers} ${weft_docs_pages}
    WORKING_DIRECTORY ${WEFT_DOCS_OUT}
    COMMENT "API reference (Doxygen) in ${WEFT_DOCS_OUT}/html/index.html"
    VERBATIM)
endif()
