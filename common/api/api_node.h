/* The node's facts built from above the folders that build them (api_node.c). */
#ifndef UNCORE_API_NODE_H
#define UNCORE_API_NODE_H

#include "uncore.h"

/* The facts a session's reads take, each built where it is not yet (a session's start). */
void api_node_build_reads(uncore_t *u);

#endif
