/* info_query_config_invalid: ABT_info_query_config returns
 * ABT_ERR_INV_QUERY_KIND for kinds outside 0..27 and does not write *val. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    int bad[] = { -1, 28, 29, 1000, -1000 };
    for (int i = 0; i < 5; i++) {
        unsigned char buf[16];
        memset(buf, 0x5C, sizeof(buf));
        CHECK_ERR(ABT_info_query_config((ABT_info_query_kind)bad[i], buf), ABT_ERR_INV_QUERY_KIND);
        for (int j = 0; j < 16; j++)
            CHECK(buf[j] == 0x5C);
    }
    CHECK_ABT(ABT_finalize());
    return 0;
}
