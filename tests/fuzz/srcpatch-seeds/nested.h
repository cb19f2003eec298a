struct outer {
	union {
		struct {
			int lo;
			int hi;
		};
		long both;
	};
	struct inner {
		union {
			int i;
			float f;
		} u;
		char c;
	} in;
	struct {
		int p, q;
	} __attribute__((aligned(16)));
	unsigned long	flags;
#if defined(CONFIG_A) && CONFIG_B > 2
	struct {
# ifdef CONFIG_C
		int c1;
# else
		int c2;
# endif
	};
#elif defined(CONFIG_D)
	int d;
#endif
	char s[] __counted_by(flags);
};
