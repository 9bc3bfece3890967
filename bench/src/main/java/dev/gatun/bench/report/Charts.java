package dev.gatun.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.category.StatisticalBarRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;

/** PNG bar charts with JFreeChart (headless). */
final class Charts {
    private static final int WIDTH = 1100;
    private static final int HEIGHT = 620;

    private Charts() {}

    /**
     * Bars of the median with a whisker spanning the range. The statistical renderer draws
     * mean ± deviation, so each whisker is given as its centre ± half-width; the bar is drawn
     * separately at the median.
     */
    static final class RangeBars {
        final DefaultCategoryDataset medians = new DefaultCategoryDataset();
        final DefaultStatisticalCategoryDataset ranges = new DefaultStatisticalCategoryDataset();

        void add(String series, String category, Stats stats) {
            medians.addValue(stats.median(), series, category);
            ranges.add((stats.min() + stats.max()) / 2, (stats.max() - stats.min()) / 2, series, category);
        }
    }

    static void rangeBars(String title, String valueLabel, RangeBars data, Double referenceLine, Path png)
            throws IOException {
        CategoryPlot plot = plot(valueLabel);
        plot.setDataset(0, data.ranges);
        StatisticalBarRenderer whiskers = new StatisticalBarRenderer();
        whiskers.setErrorIndicatorPaint(Color.BLACK);
        whiskers.setErrorIndicatorStroke(new BasicStroke(1.5f));
        whiskers.setDrawBarOutline(false);
        for (int s = 0; s < data.ranges.getRowCount(); s++) {
            whiskers.setSeriesPaint(s, new Color(0, 0, 0, 0));
        }
        whiskers.setShadowVisible(false);
        whiskers.setItemMargin(0.05);
        whiskers.setDefaultSeriesVisibleInLegend(false);
        plot.setRenderer(0, whiskers);
        plot.setDataset(1, data.medians);
        plot.setRenderer(1, barRenderer());
        if (referenceLine != null) {
            ValueMarker marker = new ValueMarker(referenceLine, Color.DARK_GRAY, new BasicStroke(1.5f,
                    BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
            plot.addRangeMarker(marker);
        }
        save(title, plot, png);
    }

    static void bars(String title, String valueLabel, DefaultCategoryDataset data, Path png) throws IOException {
        CategoryPlot plot = plot(valueLabel);
        plot.setDataset(data);
        plot.setRenderer(barRenderer());
        save(title, plot, png);
    }

    private static CategoryPlot plot(String valueLabel) {
        CategoryAxis categories = new CategoryAxis();
        categories.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        NumberAxis values = new NumberAxis(valueLabel);
        values.setAutoRangeIncludesZero(true);
        CategoryPlot plot = new CategoryPlot();
        plot.setDomainAxis(categories);
        plot.setRangeAxis(values);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return plot;
    }

    /** Distinct, print-safe colours (no pale yellow). */
    private static final Color[] PALETTE = {new Color(0xD6, 0x27, 0x28), new Color(0x1F, 0x77, 0xB4),
        new Color(0x2C, 0xA0, 0x2C), new Color(0xFF, 0x7F, 0x0E), new Color(0x94, 0x67, 0xBD),
        new Color(0x8C, 0x56, 0x4B), new Color(0x7F, 0x7F, 0x7F)};

    private static BarRenderer barRenderer() {
        BarRenderer bars = new BarRenderer();
        for (int i = 0; i < PALETTE.length; i++) {
            bars.setSeriesPaint(i, PALETTE[i]);
        }
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setItemMargin(0.05);
        return bars;
    }

    private static void save(String title, CategoryPlot plot, Path png) throws IOException {
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }
}
