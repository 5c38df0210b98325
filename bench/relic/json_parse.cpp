// bench/relic/json_parse.cpp - the JSON kernel of bench/relic/kernels.h: parse a document
// with RapidJSON (a DOM, from a const buffer: each task has its own copy) and count its
// values.  Without RapidJSON (RELIC_BENCH_HAVE_RAPIDJSON=0) it returns -2 and the driver
// skips the kernel with a message.
#include <cstddef>

#if RELIC_BENCH_HAVE_RAPIDJSON
#include <rapidjson/document.h>

static long count_values(const rapidjson::Value &v)
{
    long n = 1;
    if (v.IsObject())
        for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it)
            n += count_values(it->value);
    else if (v.IsArray())
        for (auto it = v.Begin(); it != v.End(); ++it)
            n += count_values(*it);
    return n;
}
#endif

extern "C" long relic_bench_json_parse(const char *buf, size_t len)
{
#if RELIC_BENCH_HAVE_RAPIDJSON
    rapidjson::Document doc;
    doc.Parse(buf, len);
    if (doc.HasParseError())
        return -1;
    return count_values(doc);
#else
    (void)buf;
    (void)len;
    return -2;
#endif
}
