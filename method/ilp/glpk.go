//go:build glpk

package ilp

/*
#cgo LDFLAGS: -lglpk
#include <stdlib.h>
#include <glpk.h>

// qsc_ilp_solve builds the program of ilp.Problem for n tokens and solves it with
// glp_intopt (presolver on, no output). head[i], w[i] (= length + 1), edge[i], root[i]
// and forced[i] (1: in C, 2: in C by its arc from the root) describe token i+1;
// cap = b + 1. On success it writes parent[i] (the
// tail of the arc kept into token i+1: -1 none, 0 root, else the head) and the objective,
// and returns 0; otherwise the glp_intopt code, or 100 + the MIP status when the solution
// is not optimal.
static int qsc_ilp_solve(int n, const int *head, const int *w, const double *edge, const double *root,
		const int *forced, int cap, int *parent, double *obj) {
	int i, ret, ne = 0;
	// nonzeros: at most 2 per token row, 3 per parse-edge row and 2n in the length row
	int maxne = 7 * n + 1;
	int *rootcol = malloc(sizeof(int) * (n + 1));
	int *ia = malloc(sizeof(int) * (maxne + 1));
	int *ja = malloc(sizeof(int) * (maxne + 1));
	double *ar = malloc(sizeof(double) * (maxne + 1));
	if (!rootcol || !ia || !ja || !ar) {
		free(rootcol); free(ia); free(ja); free(ar);
		return -1;
	}
	int nroot = 0;
	for (i = 0; i < n; i++) {
		rootcol[i] = 0;
		if (head[i] != 0) rootcol[i] = n + 1 + nroot++;
	}
	int ncol = n + nroot;

	glp_term_out(GLP_OFF);
	glp_prob *lp = glp_create_prob();
	glp_set_obj_dir(lp, GLP_MAX);
	glp_add_cols(lp, ncol);
	for (i = 0; i < n; i++) {
		glp_set_col_kind(lp, i + 1, GLP_BV);
		glp_set_obj_coef(lp, i + 1, edge[i]);
		if (forced[i] == 2 && rootcol[i]) glp_set_col_bnds(lp, i + 1, GLP_FX, 0.0, 0.0);
		if (rootcol[i]) {
			glp_set_col_kind(lp, rootcol[i], GLP_BV);
			glp_set_obj_coef(lp, rootcol[i], root[i]);
		}
	}
	// rows 1..n: at most one head (exactly one for a query token)
	int nrow = n;
	for (i = 0; i < n; i++) if (head[i] != 0) nrow++;
	nrow++;
	glp_add_rows(lp, nrow);
	for (i = 0; i < n; i++) {
		if (forced[i]) glp_set_row_bnds(lp, i + 1, GLP_FX, 1.0, 1.0);
		else glp_set_row_bnds(lp, i + 1, GLP_UP, 0.0, 1.0);
		ne++; ia[ne] = i + 1; ja[ne] = i + 1; ar[ne] = 1.0;
		if (rootcol[i]) { ne++; ia[ne] = i + 1; ja[ne] = rootcol[i]; ar[ne] = 1.0; }
	}
	// an arc h -> i out of token h only if an arc into h is kept
	int r = n;
	for (i = 0; i < n; i++) {
		int h = head[i];
		if (h == 0) continue;
		r++;
		glp_set_row_bnds(lp, r, GLP_UP, 0.0, 0.0);
		ne++; ia[ne] = r; ja[ne] = i + 1; ar[ne] = 1.0;
		ne++; ia[ne] = r; ja[ne] = h; ar[ne] = -1.0;
		if (rootcol[h - 1]) { ne++; ia[ne] = r; ja[ne] = rootcol[h - 1]; ar[ne] = -1.0; }
	}
	// length: sum of (length + 1) over the kept tokens <= b + 1
	r++;
	glp_set_row_bnds(lp, r, GLP_UP, 0.0, (double)cap);
	for (i = 0; i < n; i++) {
		ne++; ia[ne] = r; ja[ne] = i + 1; ar[ne] = (double)w[i];
		if (rootcol[i]) { ne++; ia[ne] = r; ja[ne] = rootcol[i]; ar[ne] = (double)w[i]; }
	}
	glp_load_matrix(lp, ne, ia, ja, ar);

	glp_iocp parm;
	glp_init_iocp(&parm);
	parm.presolve = GLP_ON;
	parm.msg_lev = GLP_MSG_OFF;
	ret = glp_intopt(lp, &parm);
	if (ret == 0) {
		int st = glp_mip_status(lp);
		if (st != GLP_OPT) ret = 100 + st;
	}
	if (ret == 0) {
		*obj = glp_mip_obj_val(lp);
		for (i = 0; i < n; i++) {
			parent[i] = -1;
			if (glp_mip_col_val(lp, i + 1) > 0.5) parent[i] = head[i];
			else if (rootcol[i] && glp_mip_col_val(lp, rootcol[i]) > 0.5) parent[i] = 0;
		}
	}
	glp_delete_prob(lp);
	free(rootcol); free(ia); free(ja); free(ar);
	return ret;
}
*/
import "C"

import (
	"fmt"
	"runtime"

	"github.com/qsc-nlp/qsc/internal/core/reuse"
)

func init() { backends[GLPK] = func() Optimizer { return new(MIP) } }

// MIP solves the Problem as the integer linear program it is, with the GNU Linear
// Programming Kit (glp_intopt: presolver, branch and cut; GLPK's default tolerances). It
// exists only in builds with the tag glpk, which link libglpk (GPL-3): the default
// build has only TreeDP. Each problem is built, solved and freed within one C call on a
// goroutine locked to its OS thread, since GLPK's environment is thread-local. Its Go
// buffers are reused; it is not safe for concurrent use.
type MIP struct {
	mark                   []bool
	head, w, forced, paren []C.int
	edge, root             []C.double
}

// Optimize solves p with GLPK.
func (m *MIP) Optimize(p *Problem, sol *Solution) error {
	if p.Rules != nil || p.Nested {
		return fmt.Errorf("%w: the glpk backend solves the paper's program only (no rules); use dp for snippets", ErrNoBackend)
	}
	var err error
	if m.mark, err = p.validate(m.mark); err != nil {
		return err
	}
	n := p.Tree.N()
	m.head = reuse.Resize(m.head, n)
	m.w = reuse.Resize(m.w, n)
	m.forced = reuse.Resize(m.forced, n)
	m.paren = reuse.Resize(m.paren, n)
	m.edge = reuse.Resize(m.edge, n)
	m.root = reuse.Resize(m.root, n)
	for i := range n {
		m.head[i] = C.int(p.Tree.Head(i + 1))
		m.w[i] = C.int(p.Lens[i] + 1)
		m.forced[i] = 0
		if m.mark[i+1] {
			m.forced[i] = 1
			if p.QueryViaRoot {
				m.forced[i] = 2
			}
		}
		m.edge[i], m.root[i] = C.double(p.Edge[i]), C.double(p.Root[i])
	}
	var obj C.double
	runtime.LockOSThread()
	ret := C.qsc_ilp_solve(C.int(n), &m.head[0], &m.w[0], &m.edge[0], &m.root[0], &m.forced[0], C.int(p.capacity()), &m.paren[0], &obj)
	runtime.UnlockOSThread()
	if ret != 0 {
		return fmt.Errorf("ilp: GLPK found no optimal solution (code %d)", int(ret))
	}
	sol.Score = float64(obj)
	sol.Parent = reuse.Resize(sol.Parent, n+1)
	sol.Parent[0] = -1
	sol.Kept = sol.Kept[:0]
	for i := range n {
		sol.Parent[i+1] = int(m.paren[i])
		if m.paren[i] >= 0 {
			sol.Kept = append(sol.Kept, i+1)
		}
	}
	return nil
}
