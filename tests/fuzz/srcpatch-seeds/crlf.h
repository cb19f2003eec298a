struct crlf {
	int a;	/* first */
	long b, c;
#ifdef CONFIG_X
	int x;
#endif
#define M(x) \
	((x) + 1)
	void (*fn)(int);
	char tail[];
};

static void check(void)
{
	CACHELINE_ASSERT_GROUP_MEMBER(struct crlf, g0, a);
}
