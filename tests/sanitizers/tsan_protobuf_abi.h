// Force-included into every C++ file of the tsan preset (see the top CMakeLists.txt).
//
// Debian's libprotobuf is built without ThreadSanitizer, but protobuf's map_field.h gives
// MapFieldBase two more members (seq1_, seq2_: 72 → 80 bytes) whenever __SANITIZE_THREAD__ is
// defined. Code compiled with -fsanitize=thread then reads every map field
// (google.protobuf.Struct's `fields`, our Metric.values) at other offsets than the library that
// built it: the worker crashed in parseMetricLine on the first `@tessera` record. Reading
// map_field.h once with the macro hidden gives the layout the library was built with; its include
// guard keeps it that way, and the macro is back for every other header (Qt's and abseil's TSan
// annotations stay on).
#pragma push_macro("__SANITIZE_THREAD__")
#undef __SANITIZE_THREAD__
#include <google/protobuf/map_field.h>
#pragma pop_macro("__SANITIZE_THREAD__")
