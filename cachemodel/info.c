/*
 * cachemodel-info [NAME]: the named machines for the shell scripts.
 * Without NAME, one line per machine: "NAME: what it stands for".
 * With NAME: "cpu_opts=<QEMU -cpu options>" and "chk=<guest keys>", the
 * model's parameters as tests/guest/init.c reads them.  Exit 1: no such
 * machine.
 */
#include <stdio.h>
#include "model.h"

int main(int argc, char **argv)
{
	const struct cm_machine *m;

	if (argc < 2) {
		for (m = cm_machines; m->name; m++)
			printf("%s: %s\n", m->name, m->what);
		return 0;
	}
	m = cm_machine(argv[1]);
	if (!m) {
		fprintf(stderr, "cachemodel: no machine '%s'; there are:", argv[1]);
		for (m = cm_machines; m->name; m++)
			fprintf(stderr, " %s", m->name);
		fprintf(stderr, "\n");
		return 1;
	}
	printf("cpu_opts=%s\n", m->cpu_opts);
	printf("chk=model_kb:%u,miss_ns:%u,remote_ns:%u,share:%u,node1_cpu:%u\n",
	       m->p.size_kb, m->p.miss_ns, m->p.remote_ns, m->p.share,
	       m->p.node1_cpu);
	return 0;
}
