/*
 * The agent's performance metrics domain: a free slot of PCP's /var/lib/pcp/pmns/stdpmid.pcp (pcp 6.0.3:
 * "NEXT FREE SLOT" is 159, 159 to 240 free).  Install reads it (pmdaproc.sh), the agent includes it.
 */
#define INTEL_UNCORE 239
