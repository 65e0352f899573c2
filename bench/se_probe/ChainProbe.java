/*
 * Sudoku Explainer's own chains, probed for bench/se_probe.py (compiled by it against
 * GRADER_SERATE_CP, outside the project's Python code; it calls SE's classes, copies none).
 *
 *   java ChainProbe hints PUZZLE LEVEL               every hint of Chaining(level) on the
 *                                                    start grid, in SE's order
 *   java ChainProbe trace PUZZLE LEVEL ROW COL VALUE on|off
 *                                                    what one dynamic chain of that level
 *                                                    turns on and off, in SE's order
 */
import diuf.sudoku.Grid;
import diuf.sudoku.solver.Solver;
import diuf.sudoku.solver.rules.chaining.Chaining;
import diuf.sudoku.solver.rules.chaining.ChainingHint;
import diuf.sudoku.solver.rules.chaining.Potential;
import diuf.sudoku.tools.LinkedSet;
import java.lang.reflect.Method;
import java.util.List;

public class ChainProbe {

    static String name(Potential p) {
        return "r" + (p.cell.getY() + 1) + "c" + (p.cell.getX() + 1) + (p.isOn ? "=" : "!=") + p.value;
    }

    static String parents(Potential p) {
        StringBuilder out = new StringBuilder();
        for (Potential q : p.parents)
            out.append(out.length() == 0 ? "" : " ").append(name(q));
        return out.toString();
    }

    public static void main(String[] args) throws Exception {
        Grid grid = new Grid();
        for (int i = 0; i < 81; i++) {
            char ch = args[1].charAt(i);
            if (ch >= '1' && ch <= '9')
                grid.setCellValue(i % 9, i / 9, ch - '0');
        }
        new Solver(grid).rebuildPotentialValues();
        Chaining chaining = new Chaining(true, true, false, Integer.parseInt(args[2]));
        if (args[0].equals("hints")) {
            Method list = Chaining.class.getDeclaredMethod("getHintList", Grid.class);
            list.setAccessible(true);
            @SuppressWarnings("unchecked")
            List<ChainingHint> hints = (List<ChainingHint>) list.invoke(chaining, grid);
            for (ChainingHint h : hints)
                System.out.println("hint\t" + String.format("%.1f", h.getDifficulty()) + "\t"
                    + h.getComplexity() + "\t" + h.getFlatComplexity() + "\t" + h);
            return;
        }
        int row = Integer.parseInt(args[3]), col = Integer.parseInt(args[4]);
        boolean on = args[6].equals("on");
        Potential start = new Potential(grid.getCell(col - 1, row - 1), Integer.parseInt(args[5]), on);
        LinkedSet<Potential> toOn = new LinkedSet<Potential>();
        LinkedSet<Potential> toOff = new LinkedSet<Potential>();
        (on ? toOn : toOff).add(start);
        Method chain = Chaining.class.getDeclaredMethod("doChaining", Grid.class, LinkedSet.class,
            LinkedSet.class);
        chain.setAccessible(true);
        Potential[] absurd = (Potential[]) chain.invoke(chaining, grid, toOn, toOff);
        for (Potential p : toOn)
            System.out.println("on\t" + name(p) + "\t" + parents(p));
        for (Potential p : toOff)
            System.out.println("off\t" + name(p) + "\t" + parents(p)
                + (p.cause == Potential.Cause.Advanced ? "\t" + p.explanation : ""));
        if (absurd != null)
            System.out.println("contradiction\t" + name(absurd[0]));
    }
}
