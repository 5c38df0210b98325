# Picks the context-switch backend: one assembly file per (arch, ABI, format), or the
# portable ucontext fallback.  The choice lives here only, never as #ifdefs in the core.
string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" weft_cpu)
if(WEFT_CONTEXT STREQUAL "ucontext")
  set(WEFT_ARCH_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/arch/switch_ucontext.c)
elseif(weft_cpu MATCHES "^(x86_64|amd64)$")
  set(WEFT_ARCH_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/arch/switch_x86_64_sysv_elf_gas.S)
elseif(weft_cpu MATCHES "^(aarch64|arm64)$")
  set(WEFT_ARCH_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/arch/switch_arm64_aapcs_elf_gas.S)
else()
  message(STATUS "weft: no assembly context switch for ${CMAKE_SYSTEM_PROCESSOR}; using ucontext")
  set(WEFT_CONTEXT "ucontext" CACHE STRING "" FORCE)
  set(WEFT_ARCH_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/arch/switch_ucontext.c)
endif()
file(GLOB weft_arch_c CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/arch/*.c)
list(REMOVE_ITEM weft_arch_c ${CMAKE_CURRENT_SOURCE_DIR}/src/arch/switch_ucontext.c
     ${CMAKE_CURRENT_SOURCE_DIR}/src/arch/ctx_call_generic.c)
list(APPEND WEFT_ARCH_SOURCES ${weft_arch_c})
# weft_ctx_call (return on completion): native in the x86-64 backend only
if(NOT WEFT_ARCH_SOURCES MATCHES "switch_x86_64")
  list(APPEND WEFT_ARCH_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/arch/ctx_call_generic.c)
endif()
# weft_lend_call (SC units on their joiner's stack, src/arch/lend.h): native on x86-64
# whatever the context backend; elsewhere lend.h uses __builtin_setjmp
if(weft_cpu MATCHES "^(x86_64|amd64)$")
  list(APPEND WEFT_ARCH_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/src/arch/lend_x86_64_sysv_elf_gas.S)
endif()
