noinst_LIBRARIES += util/libutil.a
util_libutil_a_SOURCES = util/xalloc.c util/xalloc.h util/strbuf.c util/strbuf.h util/file.c \
	util/file.h util/arena.c util/arena.h util/hmap.c util/hmap.h \
	util/privdir.c util/privdir.h util/u64map.c util/u64map.h \
	util/ksym.c util/ksym.h
