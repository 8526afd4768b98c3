// SPDX-License-Identifier: Apache-2.0
#pragma once

// The test objects of tst_surface besides TestSurface, run from tst_surface.cpp's main; each
// returns QTest::qExec's count of failures.

int runSurfaceVdbTests(int argc, char **argv);
int runSurfaceRenderTests(int argc, char **argv);
