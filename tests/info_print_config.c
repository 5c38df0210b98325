/* info_print_config: ABT_info_print_config writes a non-empty, readable text
 * description of the runtime configuration to the given FILE (a tmpfile) and
 * returns ABT_SUCCESS; it can be called repeatedly. */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    CHECK_ABT(ABT_info_print_config(fp));
    fflush(fp);
    long n1 = ftell(fp);
    CHECK(n1 > 0);
    CHECK_ABT(ABT_info_print_config(fp));
    fflush(fp);
    long n2 = ftell(fp);
    CHECK(n2 > n1);

    /* The output is text: it contains printable characters and newlines and
     * no NUL bytes. */
    rewind(fp);
    int c, newlines = 0, printable = 0;
    long total = 0;
    while ((c = fgetc(fp)) != EOF) {
        total++;
        CHECK(c != 0);
        if (c == '\n')
            newlines++;
        else if (c >= 0x20 && c < 0x7f)
            printable++;
    }
    CHECK_EQ_INT(total, n2);
    CHECK(newlines >= 1);
    CHECK(printable > 0);
    fclose(fp);

    CHECK_ABT(ABT_finalize());
    return 0;
}
