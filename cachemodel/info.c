// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel-info [NAME [KEY=VALUE...]]: the named machines for the shell
 * scripts (KEY=VALUE: MODEL_ARGS, the plugin's overrides).
 * Without NAME, one line per machine: "NAME: what it stands for".
 * With NAME: "cpu_opts=<QEMU -cpu options>" and "chk=<guest keys>", the
 * model's parameters (overrides applied) as tests/guest/ reads them.
 * Exit 1: no such machine or parameter.
 */
#include <stdio.h>
#include "model.h"

int main(int argc, char **argv)
{
	const struct cm_machine *m;
	struct cm_params p;
	int i;

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
	p = m->p;
	for (i = 2; i < argc; i++)
		if (cm_set_param(&p, argv[i])) {
			fprintf(stderr, "cachemodel: unknown parameter or bad value '%s'\n",
				argv[i]);
			return 1;
		}
	printf("cpu_opts=%s\n", m->cpu_opts);
	printf("chk=model_kb:%u,miss_ns:%u,remote_ns:%u,share:%u,node1_cpu:%u,"
	       "sns:%u,rsns:%u\n", p.size_kb, p.miss_ns, p.remote_ns, p.share,
	       p.node1_cpu, p.stream_ns, p.remote_stream_ns);
	return 0;
}
