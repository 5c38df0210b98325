/* error_get_str_args: ABT_error_get_str with str == NULL only reports the
 * length, with len == NULL only writes the string, with both NULL just
 * succeeds; an invalid code (negative, 58, large) returns ABT_ERR_OTHER (1.x)
 * and writes neither output. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    size_t len = 0;
    CHECK_ABT(ABT_error_get_str(ABT_ERR_INV_POOL_ACCESS, NULL, &len));
    CHECK_EQ_INT(len, strlen("ABT_ERR_INV_POOL_ACCESS"));

    char buf[64];
    memset(buf, 'X', sizeof(buf));
    CHECK_ABT(ABT_error_get_str(ABT_ERR_MEM, buf, NULL));
    CHECK(strcmp(buf, "ABT_ERR_MEM") == 0);
    CHECK(buf[12] == 'X');

    CHECK_ABT(ABT_error_get_str(ABT_SUCCESS, NULL, NULL));
    CHECK_ABT(ABT_error_get_str(ABT_ERR_INV_ARG, NULL, NULL));

    int bad[] = { -1, 58, 59, 1000, -100000 };
    for (int i = 0; i < 5; i++) {
        len = 777;
        memset(buf, 'X', sizeof(buf));
        CHECK_ERR(ABT_error_get_str(bad[i], buf, &len), ABT_ERR_OTHER);
        CHECK_EQ_INT(len, 777);
        CHECK(buf[0] == 'X');
        CHECK_ERR(ABT_error_get_str(bad[i], NULL, NULL), ABT_ERR_OTHER);
    }

    CHECK_ABT(ABT_finalize());
    return 0;
}
