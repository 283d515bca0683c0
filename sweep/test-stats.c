/*
 * test-stats.c - stats.c's functions from the command line, for
 * tests/sweep.sh to check against values computed independently:
 *   test-stats t DF...        the 95 % t quantiles
 *   test-stats order N REP    the run order of N points in repetition REP
 *   test-stats ci V...        mean and 95 % half-width of the values
 */
#include <stdlib.h>
#include <string.h>
#include "stats.h"

int main(int argc, char **argv)
{
	double v[SW_MAXREPS], m, h;
	int i, order[SW_MAXPTS], n;

	if (argc > 1 && !strcmp(argv[1], "t")) {
		for (i = 2; i < argc; i++)
			printf("%s %.6f\n", argv[i], sw_t975(atoi(argv[i])));
	} else if (argc == 4 && !strcmp(argv[1], "order")) {
		n = atoi(argv[2]);
		if (n < 1 || n > SW_MAXPTS)
			return 1;
		sw_order(n, atoi(argv[3]), order);
		for (i = 0; i < n; i++)
			printf("%d%c", order[i], i == n - 1 ? '\n' : ' ');
	} else if (argc > 1 && !strcmp(argv[1], "ci") &&
		   argc - 2 <= SW_MAXREPS) {
		for (i = 2; i < argc; i++)
			v[i - 2] = atof(argv[i]);
		sw_ci(v, argc - 2, &m, &h);
		printf("%.6f %.6f\n", m, h);
	} else {
		fprintf(stderr, "usage: test-stats t DF... | order N REP | ci V...\n");
		return 1;
	}
	return 0;
}
