/*
 * bcryptprimitives.dll for Wine 8, which has none: Go's runtime (1.22 and
 * later) takes its random bytes from ProcessPrng in it before main runs, and
 * stops without it. Windows 10 and later ship it; under Wine this one
 * serves ProcessPrng from RtlGenRandom (advapi32's SystemFunction036),
 * Wine's own CSPRNG. Built with mingw-w64 by the harness
 * (wine_linux_test.go) into the test's Wine prefix only; never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
