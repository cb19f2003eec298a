/* Eight items, one of them a comma declaration the order splits. */
struct eight {
	int a0;
	int a1;
	int a2;
	int a3;
	int a4;
	int a5;
	int a6;
	volatile long a, b;
};
