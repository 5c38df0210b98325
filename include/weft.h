/* weft.h - what weft offers beyond the Argobots 1.2 API.
 *
 * Include <abt.h> for the Argobots-compatible interface; this header adds weft_*
 * extensions.  Every extension follows the Argobots conventions: functions return
 * ABT_SUCCESS or an ABT_ERR_* code, and handles are the ABT_* types. */
#ifndef WEFT_H_INCLUDED
#define WEFT_H_INCLUDED

#include <abt.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WEFT_VERSION "1.2.0"
#define WEFT_VERSION_MAJOR 1
#define WEFT_VERSION_MINOR 2
#define WEFT_VERSION_PATCH 0

#ifdef __cplusplus
}
#endif

#endif
